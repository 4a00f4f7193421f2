package golden

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

type facts struct {
	Name  string
	Ports map[string]int
}

// Update writes the file (directories included) as Check then reads it: one-space indented
// JSON, ending in a newline only when Newline asks for it.
func TestUpdateWritesIndentedJSON(t *testing.T) {
	v := map[string]facts{"leaf1": {Name: "leaf1", Ports: map[string]int{"swp2": 2, "swp1": 1}}}
	want := "{\n \"leaf1\": {\n  \"Name\": \"leaf1\",\n  \"Ports\": {\n   \"swp1\": 1,\n   \"swp2\": 2\n  }\n }\n}"
	for _, newline := range []bool{false, true} {
		file := filepath.Join(t.TempDir(), "testdata", "golden.json.gz")
		Check(t, File{Path: file, Update: true, Newline: newline}, v)
		w := want
		if newline {
			w += "\n"
		}
		if got, err := unzip(file); err != nil || string(got) != w {
			t.Errorf("Newline=%v: wrote\n%q (%v)\nwant\n%q", newline, got, err, w)
		}
		Check(t, File{Path: file}, v) // and reads back the same
	}
}

// A changed value fails the comparison and names the file.
func TestCheckReportsAChange(t *testing.T) {
	file := filepath.Join(t.TempDir(), "golden.json.gz")
	Check(t, File{Path: file, Update: true}, facts{Name: "leaf1"})
	var rec recorder
	Check(&rec, File{Path: file}, facts{Name: "leaf2"})
	if !bytes.Contains(rec.errors.Bytes(), []byte(file+": collected facts changed")) {
		t.Errorf("got %q, want the file's change reported", rec.errors.String())
	}
}

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errors bytes.Buffer
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	fmt.Fprintf(&r.errors, format, args...)
}
