package reports

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

func TestDiff(t *testing.T) {
	r := func(check, dev string, s checks.Status, actual string) checks.Result {
		return checks.Result{Check: check, Device: dev, Interface: "p0", Status: s, Actual: actual, Severity: checks.SevError}
	}
	before := &Report{Results: []checks.Result{
		r("HOST-PFC", "a", checks.Pass, "PFC on priority 3"),
		r("HOST-MTU", "a", checks.Fail, "MTU 1500"),
		r("HOST-TOS", "a", checks.Pass, "ToS 106"),
		r("HOST-ECN", "b", checks.Pass, "on"),
	}}
	after := &Report{Results: []checks.Result{
		r("HOST-PFC", "a", checks.Fail, "PFC on priorities 3,4"),
		r("HOST-MTU", "a", checks.Pass, "MTU 9000"),
		r("HOST-TOS", "a", checks.Pass, "ToS 106"),
		r("HOST-DCBX", "a", checks.Error, "unknown"),
		r("HOST-CNP", "a", checks.Pass, "CNP DSCP 48"),
	}}
	d := Diff(before, after, checks.SevError)
	got := []string{}
	for _, c := range d.Changes {
		got = append(got, c.Kind+" "+c.Key)
	}
	want := []string{"new HOST-DCBX a:p0", "gone HOST-ECN b:p0", "better HOST-MTU a:p0", "worse HOST-PFC a:p0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if d.Worse != 2 {
		t.Errorf("worse = %d, want 2 (HOST-PFC worsened, HOST-DCBX new error)", d.Worse)
	}
	if len(Diff(after, after, checks.SevError).Changes) != 0 {
		t.Error("a report has no drift against itself")
	}
	if d := Diff(before, after, checks.Critical); d.Worse != 1 {
		t.Errorf("--fail-on critical: only the new error counts, got %d", d.Worse)
	}
	// fail -> error is "changed" (now undecidable), not "better".
	b2 := &Report{Results: []checks.Result{r("HOST-PFC", "a", checks.Fail, "x")}}
	a2 := &Report{Results: []checks.Result{r("HOST-PFC", "a", checks.Error, "unknown")}}
	if d := Diff(b2, a2, checks.SevError); len(d.Changes) != 1 || d.Changes[0].Kind != "changed" {
		t.Errorf("%+v", d.Changes)
	}
	// pass -> error is worse (the check no longer holds), error -> pass better; a device-level
	// result is keyed by its device alone.
	reach := func(s checks.Status) *Report {
		return &Report{Results: []checks.Result{{Check: "COLLECT-REACH", Device: "gpu09", Status: s, Severity: checks.Critical}}}
	}
	if d := Diff(reach(checks.Pass), reach(checks.Error), checks.SevError); len(d.Changes) != 1 || d.Changes[0].Kind != "worse" ||
		d.Changes[0].Key != "COLLECT-REACH gpu09" || d.Worse != 1 {
		t.Errorf("pass -> error: %+v, worse %d", d.Changes, d.Worse)
	}
	if d := Diff(reach(checks.Error), reach(checks.Pass), checks.SevError); len(d.Changes) != 1 || d.Changes[0].Kind != "better" || d.Worse != 0 {
		t.Errorf("error -> pass: %+v", d.Changes)
	}
	// A transfer result keyed by its path survives moving to another hop.
	x := func(dev string, s checks.Status) checks.Result {
		return checks.Result{Check: "XFER-RETRANS", Device: dev, Path: "a:p0->b:p0", Status: s, Severity: checks.Critical}
	}
	if d := Diff(&Report{Results: []checks.Result{x("a", checks.Pass)}}, &Report{Results: []checks.Result{x("leaf1", checks.Fail)}}, checks.SevError); len(d.Changes) != 1 || d.Changes[0].Kind != "worse" {
		t.Errorf("%+v", d.Changes)
	}
}

// Facts that changed are listed even where the verdict did not move.
func TestDiffFacts(t *testing.T) {
	port := func(dev, ifc, mtu, pfc string) PortFacts {
		return PortFacts{Device: dev, Interface: ifc, MTU: mtu, PFC: pfc, Trust: "dscp", DCBX: "static"}
	}
	before := &Report{Ports: []PortFacts{port("leaf2", "Ethernet8", "9216", "3"), port("leaf1", "Ethernet0", "9216", "3"), port("gone", "e0", "1", "1")}}
	after := &Report{Ports: []PortFacts{port("leaf2", "Ethernet8", "1500", "3,4"), port("leaf1", "Ethernet0", "9216", "3"), port("new", "e0", "1", "1")}}
	var got []string
	for _, f := range Diff(before, after, checks.SevError).Facts {
		got = append(got, f.String())
	}
	want := []string{"leaf2 Ethernet8 MTU 9216 -> 1500", "leaf2 Ethernet8 PFC 3 -> 3,4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fact changes (-want +got):\n%s", diff)
	}
}
