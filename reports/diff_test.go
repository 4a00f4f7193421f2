package reports

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

func TestDiff(t *testing.T) {
	r := func(check, dev string, s checks.Status, actual string) checks.Result {
		return checks.Result{Check: check, Device: dev, Interface: "p0", Status: s, Actual: actual}
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
	d := Diff(before, after)
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
	if len(Diff(after, after).Changes) != 0 {
		t.Error("a report has no drift against itself")
	}
}
