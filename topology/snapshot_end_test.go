package topology

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A snapshot file is whole to its end, or VerifyEnd says it was cut off: at any point after
// its devices (which a check reads whole and so cannot notice), plain or compressed.
func TestVerifyEndFindsACutOffSnapshot(t *testing.T) {
	dir := t.TempDir()
	for _, gz := range []bool{false, true} {
		data := encode(t, sampleSnapshot(40), nil, gz)
		// The devices end where the transcripts begin (for gzip, within the first member:
		// cut at whole members and inside them alike).
		// (A plain file without its last line break is whole JSON still.)
		cuts := []int{len(data) - 2, len(data) - 5, len(data) - 20, len(data) - 30, len(data) * 9 / 10, len(data) * 3 / 4}
		whole := filepath.Join(dir, "whole")
		if err := os.WriteFile(whole, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := VerifyEnd(whole); err != nil {
			t.Errorf("gzip %v: the whole file: %v", gz, err)
		}
		for _, n := range cuts {
			cut := filepath.Join(dir, "cut")
			if err := os.WriteFile(cut, data[:n], 0o600); err != nil {
				t.Fatal(err)
			}
			if err := VerifyEnd(cut); !errors.Is(err, ErrCutOff) {
				t.Errorf("gzip %v, cut at %d of %d: %v, want ErrCutOff", gz, n, len(data), err)
			}
		}
	}
}

// A compressed snapshot without the end member (recompressed by gzip, or from an earlier
// roceaudit) is verified by decompressing it to its end.
func TestVerifyEndOfARecompressedSnapshot(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(encode(t, sampleSnapshot(40), nil, false)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data := gz.Bytes()
	whole := filepath.Join(dir, "whole.json.gz")
	if err := os.WriteFile(whole, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := VerifyEnd(whole); err != nil {
		t.Errorf("a whole recompressed file: %v", err)
	}
	cut := filepath.Join(dir, "cut.json.gz")
	if err := os.WriteFile(cut, data[:len(data)-3], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := VerifyEnd(cut); !errors.Is(err, ErrCutOff) {
		t.Errorf("a cut recompressed file: %v, want ErrCutOff", err)
	}
}

// The end member is the file's last bytes, and readers take the three members as one stream.
func TestCompressedSnapshotEndsWithItsOwnMember(t *testing.T) {
	data := encode(t, sampleSnapshot(3), nil, true)
	if !endsWithEndMember(data[max(0, len(data)-endTail):]) {
		t.Fatal("no end member in the file's last bytes")
	}
	for _, transcripts := range []bool{false, true} {
		if _, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{Transcripts: transcripts}); err != nil {
			t.Errorf("transcripts %v: %v", transcripts, err)
		}
	}
}
