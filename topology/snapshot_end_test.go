package topology

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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

// The cuts a copy in progress leaves (the writer flushes at the end of each transcript line
// and before the end member) are found; whole files in other shapes are not taken for cut.
func TestVerifyEndAtTheWritersSeams(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := encode(t, sampleSnapshot(5), nil, false)
	lastLine := bytes.LastIndex(plain[:len(plain)-len(snapshotEnd)], []byte("]}\n"))
	gz := encode(t, sampleSnapshot(5), nil, true)
	endAt := -1
	for i := len(gz) - 18; i >= 0 && endAt < 0; i-- {
		if got, whole := oneMember(gz[i:]); whole && string(got) == snapshotEnd {
			endAt = i
		}
	}
	if lastLine < 0 || endAt < 0 {
		t.Fatalf("no seam: last transcript line at %d, end member at %d", lastLine, endAt)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, plain, "", "  "); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		cut  bool
	}{
		{"plain, after a transcript line", plain[:lastLine+3], true},
		{"gzip, before the end member", gz[:endAt], true},
		{"plain, reformatted", indented.Bytes(), false},
		{"plain, 100 blanks after", append(append([]byte(nil), plain...), bytes.Repeat([]byte(" "), 100)...), false},
		{"gzip, zero padding after", append(append([]byte(nil), gz...), make([]byte, 512)...), false},
	} {
		err := VerifyEnd(write("f", tc.data))
		if got := errors.Is(err, ErrCutOff); got != tc.cut || (!tc.cut && err != nil) {
			t.Errorf("%s: %v, want cut off %v", tc.name, err, tc.cut)
		}
	}
}

// A FIFO is not verified (it cannot be read twice), and opening one again must not wait for
// a writer that never comes.
func TestVerifyEndOfAFIFOReturnsAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- VerifyEnd(fifo) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("VerifyEnd waits on a FIFO")
	}
}
