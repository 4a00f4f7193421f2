package reports

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

func TestFormatsAndLookup(t *testing.T) {
	// The names are what scripts pass to --format and --report: pinned here on purpose.
	want := []string{"text", "json", "junit", "html", "markdown", "prometheus"}
	if got := Formats(); !slices.Equal(got, want) {
		t.Fatalf("Formats() = %v, want %v", got, want)
	}
	if got, want := FormatsHelp(), "text|json|junit|html|markdown|prometheus"; got != want {
		t.Errorf("FormatsHelp() = %q, want %q", got, want)
	}
	seen := map[string]bool{}
	for _, f := range Formats() {
		rd, err := Lookup(f)
		if err != nil || rd == nil {
			t.Fatalf("Lookup(%q) = %v, %v", f, rd, err)
		}
		// Each name has its own renderer: output differs between formats.
		out := string(render(t, f, sampleReport(), Options{}))
		if seen[out] {
			t.Errorf("format %q renders the same as another format", f)
		}
		seen[out] = true
	}
	if _, err := Lookup(" JSON "); err != nil {
		t.Errorf("Lookup is case-insensitive and trims: %v", err)
	}
}

func TestLookupUnknownListsFormats(t *testing.T) {
	_, err := Lookup("xml")
	if err == nil {
		t.Fatal("Lookup(xml) succeeded")
	}
	for _, f := range append(Formats(), `"xml"`) {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %s", err, f)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	if got, want := SummaryLine(sampleReport()), "6 devices, 9 ports: 4 failed, 2 errors, 1 warning, 23 passed, 1 skipped, 1 waived"; got != want {
		t.Errorf("SummaryLine = %q, want %q", got, want)
	}
	// Without a waiver file nothing can be waived, so the count is not shown, even at 0.
	noWaivers := sampleReport()
	noWaivers.Waivers = nil
	if got := SummaryLine(noWaivers); strings.Contains(got, "waived") {
		t.Errorf("SummaryLine without a waiver file = %q", got)
	}
	r := &Report{
		Devices: []DeviceSummary{{Name: "a", Reachable: true}},
		Results: []checks.Result{
			{Check: "X", Status: checks.Error, Device: "a", Interface: "p1"},
			{Check: "X", Status: checks.Error, Device: "a", Interface: "p1"},
			{Check: "Y", Status: checks.Pass, Device: "b", Interface: "p1"},
		},
	}
	// b only appears in results and still counts; p1 on a and on b are two ports.
	if got, want := SummaryLine(r), "2 devices, 2 ports: 0 failed, 2 errors, 0 warnings, 1 passed, 0 skipped"; got != want {
		t.Errorf("SummaryLine = %q, want %q", got, want)
	}
}

func TestNatCompare(t *testing.T) {
	// Digit runs compare as numbers, so Ethernet1/10 sorts before Ethernet2/1 and Ethernet12.
	sorted := []string{"", "Ethernet0", "Ethernet1/1", "Ethernet1/2", "Ethernet1/10", "Ethernet2/1", "Ethernet4", "Ethernet8", "Ethernet12", "ens1f0np0", "ens1f1np1", "swp1", "swp2", "swp10", "swp51"}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, natCompare)
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("natural order = %q, want %q", shuffled, sorted)
	}
	if natCompare("eth01", "eth1") == 0 {
		t.Error("eth01 and eth1 compare equal; the order must be total")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRenderWriteError(t *testing.T) {
	for _, f := range Formats() {
		rd, _ := Lookup(f)
		err := rd.Render(failingWriter{}, sampleReport(), Options{})
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: write error not returned: %v", f, err)
		}
	}
}
