package topology

import (
	"bytes"
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// A snapshot written from spooled facts, added in any order and from several goroutines,
// is byte for byte the one written from the facts in memory, in the snapshot's order.
func TestFactSpoolWritesTheSameSnapshot(t *testing.T) {
	for _, gz := range []bool{false, true} {
		full := sampleSnapshot(20)

		dir := t.TempDir()
		facts, err := NewFactSpool(dir)
		if err != nil {
			t.Fatal(err)
		}
		stub := *full
		stub.Devices = make([]*Device, len(full.Devices))
		var wg sync.WaitGroup
		for i := len(full.Devices) - 1; i >= 0; i-- {
			// Every other device stays in memory: both kinds mix in one snapshot.
			if i%2 == 1 {
				stub.Devices[i] = full.Devices[i]
				continue
			}
			stub.Devices[i] = &Device{Name: "dropped"}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := facts.Add(i, full.Devices[i]); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		// Transcripts travel separately (the transcript spool); facts never carry them.
		var tr *TranscriptSpool
		if tr, err = NewTranscriptSpool(dir); err != nil {
			t.Fatal(err)
		}
		for _, d := range full.Devices {
			if err := tr.Add(d.Name, d.Transcript); err != nil {
				t.Fatal(err)
			}
			d.Transcript = nil
		}
		withTr := encode(t, full, tr, gz)
		var buf bytes.Buffer
		if err := facts.WriteSnapshotFile(&buf, gz, &stub, tr); err != nil {
			t.Fatal(err)
		}
		if gz {
			if !bytes.Equal(gunzip(t, buf.Bytes()), gunzip(t, withTr)) {
				t.Fatalf("gzip: spooled snapshot differs")
			}
		} else if !bytes.Equal(buf.Bytes(), withTr) {
			t.Fatalf("spooled snapshot differs (%d bytes, want %d)", buf.Len(), len(withTr))
		}
		if err := facts.Add(0, full.Devices[0]); err == nil {
			t.Error("a device added twice was accepted")
		}
		for _, c := range []interface{ Close() error }{facts, tr} {
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
			t.Fatalf("spool files left behind: %v", left)
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := Gunzipped(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
