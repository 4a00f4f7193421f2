package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/reports"
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
	arr := writeFile(t, dir, "arr.json", "[1, 2]\n")
	if code, _, errs := run(t, "diff", good, arr); code != exitUsage || !strings.Contains(errs, "a JSON array, not a roceaudit report or snapshot") {
		t.Errorf("an array: exit %d %s", code, errs)
	}
	held, _ := os.ReadFile(good)
	if code, _, errs := run(t, "diff", good, bad, "--report", "json="+good); code != exitUsage || !strings.Contains(errs, "would overwrite the old report or snapshot "+good) {
		t.Errorf("a drift onto its own input: exit %d %s", code, errs)
	}
	if now, _ := os.ReadFile(good); string(now) != string(held) {
		t.Error("the old report was overwritten")
	}
	diffHonoursTheReportFlags(t, dir, good, bad, snap)
}

// diff takes --quiet, --report, --only and --skip as the other commands do, never dropping one.
func diffHonoursTheReportFlags(t *testing.T, dir, good, bad, snap string) {
	t.Helper()
	_, full, _ := run(t, "diff", good, bad, "--format", "json")
	var whole reports.Drift
	if err := json.Unmarshal([]byte(full), &whole); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, full)
	}

	// --quiet: the one-line summary only; --report: each file in its format, all the same drift.
	js, txt := filepath.Join(dir, "drift.json"), filepath.Join(dir, "drift.txt")
	code, out, errs := run(t, "diff", good, bad, "--quiet", "--report", "json="+js, "--report", "text="+txt)
	if code != exitFailed {
		t.Fatalf("--quiet --report: exit %d: %s", code, errs)
	}
	summary := fmt.Sprintf("%d changes, %d settings changed, %d new or worse failures", len(whole.Changes), len(whole.Facts), whole.Worse)
	if out != summary+"\n" {
		t.Errorf("--quiet printed %q, want %q", out, summary)
	}
	var written reports.Drift
	if data, err := os.ReadFile(js); err != nil || json.Unmarshal(data, &written) != nil || !reflect.DeepEqual(written, whole) {
		t.Errorf("--report json=: %v\n%s", err, data)
	}
	if data, err := os.ReadFile(txt); err != nil || !strings.Contains(string(data), "settings that changed:\n") || !strings.HasSuffix(string(data), "\n"+summary+"\n") {
		t.Errorf("--report text=: %v\n%s", err, data)
	}

	// --only/--skip narrow the compared results alike for reports and snapshots; a device that
	// could not be collected (gpu09, gpu14) is compared whatever they say.
	for _, tc := range []struct {
		old  string
		args []string
		keep func(check string) bool
	}{
		{good, []string{"--only", "HOST-PFC"}, func(c string) bool { return c == "HOST-PFC" }},
		{snap, []string{"--only", "HOST-PFC"}, func(c string) bool { return c == "HOST-PFC" }},
		{good, []string{"--skip", "HOST-PFC,HOST-MTU"}, func(c string) bool { return c != "HOST-PFC" && c != "HOST-MTU" }},
	} {
		args := append([]string{"diff", tc.old, bad, "--format", "json"}, tc.args...)
		code, out, errs := run(t, args...)
		if code != exitFailed {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		var d reports.Drift
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var want, got []string
		for _, c := range whole.Changes {
			check, _, _ := strings.Cut(c.Key, " ")
			if tc.keep(check) || strings.HasPrefix(check, "COLLECT-") {
				want = append(want, c.Key)
			}
		}
		for _, c := range d.Changes {
			got = append(got, c.Key)
		}
		if !slices.Contains(got, "COLLECT-REACH gpu09") || !slices.Equal(got, want) {
			t.Errorf("%v: compared %v, want %v", tc.args, got, want)
		}
	}

	// A format diff cannot write is refused before anything is read, and nothing is written.
	for _, bad := range []string{"html", "junit", "markdown", "prometheus"} {
		file := filepath.Join(dir, "drift."+bad)
		code, out, errs := run(t, "diff", good, bad, "--report", bad+"="+file)
		if _, err := os.Stat(file); code != exitUsage || out != "" || !strings.Contains(errs, "diff writes text or json") || err == nil {
			t.Errorf("--report %s: exit %d, stat %v, %s%s", bad, code, err, out, errs)
		}
	}
}

// A drift warns when it would mislead: a partial report, or two reports of two fabrics.
func TestDiffCaveats(t *testing.T) {
	dev := func(names ...string) []reports.DeviceSummary {
		var out []reports.DeviceSummary
		for _, n := range names {
			out = append(out, reports.DeviceSummary{Name: n})
		}
		return out
	}
	paths := []string{"old.json", "new.json"}
	if w := diffCaveats(paths, &reports.Report{Devices: dev("gpu01", "leaf1")}, &reports.Report{Devices: dev("leaf1")}); len(w) != 0 {
		t.Errorf("one fabric, both whole: %q", w)
	}
	w := diffCaveats(paths, &reports.Report{Devices: dev("gpu01")}, &reports.Report{Devices: dev("gpu01"), Interrupted: "interrupted"})
	if len(w) != 1 || !strings.Contains(w[0], "new.json is a partial report (interrupted)") {
		t.Errorf("a partial new report: %q", w)
	}
	w = diffCaveats(paths, &reports.Report{Devices: dev("gpu01")}, &reports.Report{Devices: dev("dc2-gpu01")})
	if len(w) != 1 || !strings.Contains(w[0], "share no device") {
		t.Errorf("two fabrics: %q", w)
	}
}
