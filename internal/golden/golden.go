// Package golden compares a test's value with a golden file of gzipped JSON, and rewrites the
// file when the test is asked to (its -update flag): the differential guard of a parser's
// optimisations, which must leave every fact, evidence and error as it was. It is imported by
// tests only.
package golden

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// File is a golden file: gzipped (best compression) JSON indented by one space.
type File struct {
	// Path is the file's path, relative to the test's package.
	Path string
	// Update rewrites the file from the value compared before comparing.
	Update bool
	// Newline ends the rewritten JSON with a newline, as json.Encoder writes it.
	Newline bool
}

// Check compares got, through JSON as a snapshot holds it, with the value recorded in f
// (rewriting f first when f.Update is set).
func Check[T any](t testing.TB, f File, got T) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if f.Update {
		write(t, f, b)
	}
	recorded, err := unzip(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	var want, gotRT T
	if err := json.Unmarshal(recorded, &want); err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	if err := json.Unmarshal(b, &gotRT); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, gotRT); d != "" {
		t.Errorf("%s: collected facts changed (-recorded +collected):\n%s", f.Path, d)
	}
}

// unzip is the content of the gzipped file.
func unzip(file string) ([]byte, error) {
	r, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// write records the JSON b in f.
func write(t testing.TB, f File, b []byte) {
	t.Helper()
	var indented bytes.Buffer
	if err := json.Indent(&indented, b, "", " "); err != nil {
		t.Fatal(err)
	}
	if f.Newline {
		indented.WriteByte('\n')
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(indented.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
