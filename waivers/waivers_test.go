package waivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

// Every file in testdata/invalid is refused with the message its first line announces.
func TestInvalidFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no invalid files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("%s: first line must be '# want: MESSAGE'", f)
			}
			ws, err := Parse(filepath.Base(f), data)
			if err == nil {
				t.Fatalf("accepted: %+v", ws)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		})
	}
}

func TestApply(t *testing.T) {
	ws, err := Load("testdata/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 3 || ws[0].Line != 2 || ws[0].Owner != "netops" {
		t.Fatalf("parsed %+v", ws)
	}
	rs := []checks.Result{
		{Check: "SW-DCBX", Status: checks.Fail, Device: "leaf1", Interface: "Ethernet1/3", Actual: "dcbx", Message: "DCB regime differs"},
		{Check: "SW-DCBX", Status: checks.Fail, Device: "spine1", Interface: "Ethernet1/3", Actual: "dcbx"},
		{Check: "SW-DCBX", Status: checks.Error, Device: "leaf2", Interface: "Ethernet8", Actual: "unknown"},
		{Check: "HOST-TOS", Status: checks.Warn, Device: "gpu08", Interface: "e0", Actual: "96"},
		{Check: "SW-MTU", Status: checks.Pass, Device: "leaf1", Interface: "Ethernet8"},
	}
	out := Apply(ws, rs, time.Date(2026, 3, 2, 23, 0, 0, 0, time.UTC))
	var got []string
	for _, r := range out.Results {
		got = append(got, string(r.Status)+" "+r.Check+" "+r.Device+" "+r.Actual)
	}
	want := []string{
		"waived SW-DCBX leaf1 dcbx",   // matched: keeps its actual value
		"fail SW-DCBX spine1 dcbx",    // device pattern leaf* does not match
		"error SW-DCBX leaf2 unknown", // an undecided check is never waived
		"warn HOST-TOS gpu08 96",      // the waiver expired in January
		"pass SW-MTU leaf1 ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if m := out.Results[0].Message; m != "waived until 2026-06-30 (NET-1234: host side migrates first; owner netops): DCB regime differs" {
		t.Errorf("waived message = %q", m)
	}
	if out.Applied != 1 || len(out.Expired) != 1 || out.Expired[0].Check != "HOST-TOS" || len(out.Unused) != 1 || out.Unused[0].Device != "spine9" {
		t.Errorf("applied %d, expired %+v, unused %+v", out.Applied, out.Expired, out.Unused)
	}
	if rs[0].Status != checks.Fail {
		t.Error("Apply modified its input")
	}
	// The expiry day itself is still covered.
	if out := Apply(ws, rs[3:4], time.Date(2026, 1, 31, 23, 59, 0, 0, time.UTC)); out.Applied != 1 {
		t.Error("a waiver does not hold through its last day")
	}
}

func TestGlobMatchesSlashes(t *testing.T) {
	m := Waiver{Interface: "Ethernet1/*"}.matcher()
	if !m.matches(checks.Result{Interface: "Ethernet1/49"}) || m.matches(checks.Result{Interface: "Ethernet2/1"}) {
		t.Error("interface glob Ethernet1/* is wrong")
	}
}

// A waiver that matches only errors waives nothing, and says why.
func TestUnusedWaiverThatMatchedErrors(t *testing.T) {
	ws := []Waiver{{Check: "SW-PFC", Device: "leaf*", Reason: "r", Expires: "2027-01-01"}, {Check: "SW-MTU", Reason: "r", Expires: "2027-01-01"}}
	rs := []checks.Result{
		{Check: "SW-PFC", Status: checks.Error, Device: "leaf1"},
		{Check: "SW-PFC", Status: checks.Error, Device: "leaf2"},
		{Check: "SW-PFC", Status: checks.Error, Device: "spine1"},
	}
	out := Apply(ws, rs, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC))
	if out.Applied != 0 || len(out.Unused) != 2 {
		t.Fatalf("applied %d, unused %+v", out.Applied, out.Unused)
	}
	if got, want := out.Unused[0].UnusedWhy(), "matched 2 results that are errors: errors are never waived"; got != want {
		t.Errorf("why = %q, want %q", got, want)
	}
	if got := out.Unused[1].UnusedWhy(); got != "" {
		t.Errorf("a waiver that matched nothing says %q", got)
	}
}
