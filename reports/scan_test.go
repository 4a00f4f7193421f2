package reports

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// One pass counts what a pass per question would: statuses (one outside the list too),
// ports and devices named again after others came between.
func TestScanResultsCountsAsSeparatePassesWould(t *testing.T) {
	results := []checks.Result{
		{Status: checks.Pass, Device: "leaf1", Interface: "Ethernet0"},
		{Status: checks.Fail, Device: "leaf1", Interface: "Ethernet0"},
		{Status: checks.Pass, Device: "leaf1"},
		{Status: checks.Warn, Device: "gpu1", Interface: "ens1"},
		{Status: "odd", Device: "leaf1", Interface: "Ethernet0"},
		{Status: checks.Skip},
		{Status: checks.Pass, Device: "gpu1", Interface: "Ethernet0"},
	}
	s := scanResults(results)
	if diff := cmp.Diff(Summarize(results), s.summary()); diff != "" {
		t.Errorf("statuses (-Summarize +scan):\n%s", diff)
	}
	wantPorts := map[[2]string]bool{{"leaf1", "Ethernet0"}: true, {"gpu1", "ens1"}: true, {"gpu1", "Ethernet0"}: true}
	if diff := cmp.Diff(wantPorts, s.ports); diff != "" {
		t.Errorf("ports (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"leaf1": true, "gpu1": true}, s.devices); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
}

// The summary line counts the report's results as they are: FromSnapshot's scan of them
// serves only while Results is the slice it scanned.
func TestSummaryFollowsReplacedResults(t *testing.T) {
	results := []checks.Result{
		{Check: "A", Status: checks.Pass, Device: "leaf1", Interface: "Ethernet0"},
		{Check: "B", Status: checks.Fail, Device: "leaf1", Interface: "Ethernet4"},
		{Check: "C", Status: checks.Fail, Device: "gpu1", Interface: "ens1"},
	}
	rep := FromSnapshot(&topology.Snapshot{}, results)
	if got, want := SummaryLine(rep), "2 devices, 3 ports: 2 failed, 0 errors, 0 warnings, 1 passed, 0 skipped"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	rep.Results = rep.Results[:1]
	if got, want := SummaryLine(rep), "1 device, 1 port: 0 failed, 0 errors, 0 warnings, 1 passed, 0 skipped"; got != want {
		t.Errorf("after the results were cut: %q, want %q", got, want)
	}
	rep.Results = append([]checks.Result(nil), results[1:]...)
	if got, want := SummaryLine(rep), "2 devices, 2 ports: 2 failed, 0 errors, 0 warnings, 0 passed, 0 skipped"; got != want {
		t.Errorf("after the results were replaced: %q, want %q", got, want)
	}
}
