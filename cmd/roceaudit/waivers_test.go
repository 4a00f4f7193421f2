package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// Waiving every SW-MTU failure of the broken lab leaves no failure; the
// waived result keeps its actual value, expired and unused entries are reported.
func TestWaiversOnTheLab(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--format", "json", "--only", "SW-MTU")
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var fails []checks.Result
	for _, r := range decodeReport(t, out).Results {
		if r.Status == checks.Fail {
			fails = append(fails, r)
		}
	}
	if len(fails) == 0 {
		t.Fatal("the broken lab has no SW-MTU failure")
	}
	body := "- check: SW-MTU\n  reason: RMA ticket 77\n  expires: 2999-01-01\n  owner: netops\n" +
		"- check: SW-PFC\n  reason: old\n  expires: 2001-01-01\n" +
		"- check: SW-MTU\n  device: nosuch*\n  reason: never matches\n  expires: 2999-01-01\n"
	wf := writeFile(t, t.TempDir(), "waivers.yaml", body)
	code, out, errs = run(t, "audit", "-i", l.InventoryPath, "--format", "json", "--only", "SW-MTU", "--waivers", wf)
	// No failure is left; gpu09's wrong host key still makes the audit incomplete.
	if code != exitIncomplete {
		t.Fatalf("waived run: exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	for _, f := range fails {
		var got *checks.Result
		for i, r := range rep.Results {
			if r.Check == f.Check && r.Device == f.Device && r.Interface == f.Interface {
				got = &rep.Results[i]
			}
		}
		if got == nil || got.Status != checks.Waived || got.Actual != f.Actual || !strings.HasPrefix(got.Message, "waived until 2999-01-01 (RMA ticket 77; owner netops)") {
			t.Errorf("%s %s %s: %+v", f.Check, f.Device, f.Interface, got)
		}
	}
	w := rep.Waivers
	if w == nil || w.Applied != len(fails) || len(w.Expired) != 1 || w.Expired[0].Line != 5 || len(w.Unused) != 1 || w.Unused[0].Line != 8 || w.Unused[0].Device != "nosuch*" {
		t.Errorf("waivers section %+v", w)
	}
	_, text, _ := run(t, "audit", "-i", l.InventoryPath, "--only", "SW-MTU", "--waivers", wf, "--no-color")
	for _, want := range []string{fmt.Sprintf("%d waived", len(fails)), "expired (line 5) check SW-PFC", "unused  (line 8) check SW-MTU, device nosuch*"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// Without a waiver file nothing is waived and no count says so.
	if _, text, _ := run(t, "audit", "-i", l.InventoryPath, "--only", "SW-MTU", "--no-color"); strings.Contains(text, "waived") {
		t.Errorf("waived shown without a waiver file:\n%s", text)
	}
}

func TestMalformedWaiversAreUsageErrors(t *testing.T) {
	bad := writeFile(t, t.TempDir(), "w.yaml", "- check: SW-MTU\n  expires: 2026-01-01\n  colour: red\n")
	code, _, errs := run(t, "check", "no-such-snapshot.json", "--waivers", bad)
	if code != exitUsage || !strings.Contains(errs, bad+":3: unknown key \"colour\"") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// --quiet prints the one-line summary and nothing else.
func TestQuietKeepsTheSummaryLine(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, _ := run(t, "audit", "-i", l.InventoryPath, "--quiet", "--only", "SW-MTU")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(out, " 0 failed, 0 errors, 0 warnings, ") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}
