package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDiffShowsDriftBetweenReportsAndSnapshots(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	healthy := startLab(t, "healthy")
	run(t, "audit", "-i", healthy.InventoryPath, "--quiet", "--report", "json="+good)
	broken := startLab(t, "broken")
	run(t, "audit", "-i", broken.InventoryPath, "--quiet", "--report", "json="+bad)

	code, out, errs := run(t, "diff", good, bad)
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"HOST-PFC gpu06:ens1f0np0", "PFC on priority 3 -> PFC on priorities 3,4", "new or worse failures",
		"settings that changed:\n", "  leaf2 swp2 MTU 9216 -> 9000\n", "  gpu06 ens1f0np0 PFC 3 -> 3,4\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code, out, _ := run(t, "diff", bad, good); code != exitOK || !strings.Contains(out, "better") {
		t.Errorf("fixing things is not a failure: exit %d\n%s", code, out)
	}
	snap := filepath.Join(dir, "snap.json")
	run(t, "collect", "-i", healthy.InventoryPath, "-o", snap)
	if code, out, _ := run(t, "diff", snap, good); code != exitOK || !strings.Contains(out, "no drift") {
		t.Errorf("snapshot vs its own audit: exit %d\n%s", code, out)
	}
	if code, _, errs := run(t, "diff", good, filepath.Join(dir, "missing.json")); code != exitUsage || !strings.Contains(errs, "missing.json") {
		t.Errorf("missing file: exit %d %s", code, errs)
	}
}
