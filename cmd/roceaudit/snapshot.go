package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/roceaudit/roceaudit/internal/outfile"
	"github.com/roceaudit/roceaudit/topology"
)

// readSnapshots reads and validates every snapshot named, then merges them (shards of one
// collection, or parts of one fabric); a snapshot that does not fit is a usage error.
func readSnapshots(paths []string, warn func(string)) (*topology.Snapshot, error) {
	defer collectLessWhileReading()()
	snaps := make([]*topology.Snapshot, 0, len(paths))
	for _, p := range paths {
		s, err := readSnapshot(p)
		if err != nil {
			return nil, err
		}
		// The checks read only the devices, which were whole; a copy cut off in its
		// transcripts is still worth checking, and worth knowing about.
		if err := topology.VerifyEnd(p); errors.Is(err, topology.ErrCutOff) {
			warn(fmt.Sprintf("%s: %v: it was cut off after its devices (a partial copy?); they are whole, its transcripts are not", p, err))
		} else if err != nil {
			warn(fmt.Sprintf("%s: %v", p, err))
		}
		snaps = append(snaps, s)
	}
	merged, err := topology.MergeSnapshots(snaps)
	if err != nil {
		return nil, usagef("merging %d snapshots: %w", len(paths), err)
	}
	limitMemory(len(merged.Devices)) // for the checks and the report
	return merged, nil
}

// readSnapshot reads one snapshot file (gzip-compressed or not) for checking: transcripts,
// which no check reads, are left on disk.
func readSnapshot(path string) (*topology.Snapshot, error) {
	snap, err := topology.OpenSnapshot(path, topology.ReadOptions{CheckedCounters: true})
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, usageError{fmt.Errorf("reading snapshot: %w", err)}
	}
	if err != nil {
		return nil, usagef("%s: not a roceaudit snapshot: %w", path, err)
	}
	return validSnapshot(path, snap)
}

func validSnapshot(path string, snap *topology.Snapshot) (*topology.Snapshot, error) {
	if snap.Schema != topology.SnapshotSchema {
		return nil, usagef("%s: schema %q, expected %q (written by `roceaudit collect`)", path, snap.Schema, topology.SnapshotSchema)
	}
	if err := snap.Recipe.Validate(); err != nil {
		return nil, usagef("%s: %w", path, err)
	}
	return snap, nil
}

// writeSnapshot streams snap, with the facts and transcripts spooled while collecting it, to
// path (gzip-compressed when the name ends in .gz). Snapshots keep every command's raw
// output: a new one is readable by its owner only.
func writeSnapshot(path string, snap *topology.Snapshot, facts *topology.FactSpool, spool *topology.TranscriptSpool) error {
	return outfile.WriteFunc(path, 0o600, func(w io.Writer) error {
		if err := facts.WriteSnapshotFile(w, topology.Gzipped(path), snap, spool); err != nil {
			return fmt.Errorf("encoding snapshot: %w", err)
		}
		return nil
	})
}

// readMaybeGzipped reads a whole file, gunzipped when it is gzip-compressed (a report or a
// snapshot for diff).
func readMaybeGzipped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := topology.Gunzipped(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
