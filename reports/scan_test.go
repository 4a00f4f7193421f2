package reports

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
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
