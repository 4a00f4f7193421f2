package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check reads a snapshot's devices, not its transcripts: a copy cut off in them is still
// checked, with the same verdict, and a warning that it is not whole.
func TestCheckWarnsOfACutOffSnapshot(t *testing.T) {
	l := startLab(t, "healthy")
	dir := t.TempDir()
	for _, name := range []string{"snap.json", "snap.json.gz"} {
		whole := filepath.Join(dir, name)
		if code, _, errs := run(t, "collect", "-i", l.InventoryPath, "-o", whole); code != exitOK {
			t.Fatalf("collect: exit %d %s", code, errs)
		}
		code, _, errs := run(t, "check", whole, "--quiet")
		if code != exitOK || strings.Contains(errs, "warning") {
			t.Fatalf("%s whole: exit %d, stderr %q", name, code, errs)
		}
		data, err := os.ReadFile(whole)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, "cut-"+name)
		if err := os.WriteFile(cut, data[:len(data)-30], 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errs = run(t, "check", cut, "--quiet")
		if code != exitOK || !strings.Contains(errs, "warning: "+cut+": the file ends early") {
			t.Errorf("%s cut off: exit %d, stderr %q; want the verdict and a warning", name, code, errs)
		}
	}
}
