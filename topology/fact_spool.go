package topology

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// FactSpool keeps each device's facts in a temporary file from the moment the device is
// collected until the snapshot is written, so a collection holds the facts of the devices
// still being collected rather than of the whole fabric (at 10,000 devices the facts were
// most of collect's heap). Devices finish in any order; the snapshot keeps its own, so the
// spool remembers where each device's line is. Safe for concurrent Add.
type FactSpool struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	off int64
	at  map[int]factSpan // device index in the snapshot -> its encoded line
	buf []byte
	err error
}

type factSpan struct{ off, n int64 }

// NewFactSpool creates the spool's file in dir ("" for the system's temporary folder).
func NewFactSpool(dir string) (*FactSpool, error) {
	f, err := os.CreateTemp(dir, "roceaudit-facts-*")
	if err != nil {
		return nil, fmt.Errorf("fact spool: %w", err)
	}
	return &FactSpool{f: f, w: bufio.NewWriterSize(f, 256<<10), at: map[int]factSpan{}}, nil
}

// Add encodes device i of the snapshot (its facts: the transcript is not kept) as it will
// appear there. The caller may drop the facts afterwards.
func (s *FactSpool) Add(i int, d *Device) error {
	facts := *d
	facts.Transcript = nil
	data, err := json.Marshal(&facts)
	if err != nil {
		return fmt.Errorf("facts of %s: %w", d.Name, err)
	}
	data = append(data, '\n') // as json.Encoder ends each value
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if _, dup := s.at[i]; dup {
		return fmt.Errorf("fact spool: device %d (%s) added twice", i, d.Name)
	}
	if _, err := s.w.Write(data); err != nil {
		s.err = fmt.Errorf("fact spool: %w", err)
		return s.err
	}
	s.at[i] = factSpan{s.off, int64(len(data))}
	s.off += int64(len(data))
	return nil
}

// WriteSnapshotFile is topology.WriteSnapshotFile with the facts of every device the spool
// holds read from it, in the snapshot's order.
func (s *FactSpool) WriteSnapshotFile(w io.Writer, gzipped bool, snap *Snapshot, transcripts *TranscriptSpool) error {
	s.mu.Lock()
	err := s.err
	if err == nil {
		if ferr := s.w.Flush(); ferr != nil {
			err = fmt.Errorf("fact spool: %w", ferr)
		}
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return writeSnapshotFile(w, gzipped, snap, s, transcripts)
}

// copyTo writes device i's spooled line to w; it reports whether the spool has it. A nil
// spool has nothing.
func (s *FactSpool) copyTo(w io.Writer, i int) (bool, error) {
	if s == nil {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	span, ok := s.at[i]
	if !ok {
		return false, nil
	}
	if int64(cap(s.buf)) < span.n {
		s.buf = make([]byte, span.n)
	}
	b := s.buf[:span.n]
	if _, err := s.f.ReadAt(b, span.off); err != nil {
		return true, fmt.Errorf("fact spool: %w", err)
	}
	_, err := w.Write(b)
	return true, err
}

// Close removes the spool's file.
func (s *FactSpool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return removeSpoolFile(s.f)
}
