package reports

import (
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// Hosts at the bottom, leaves above them, spines on top: tiers come from the links alone.
func TestDrawFabricTiers(t *testing.T) {
	d := drawFabric(sampleReport())
	tierOf, y := map[string]int{}, map[string]int{}
	for _, n := range d.Nodes {
		tierOf[n.Name], y[n.Name] = n.Tier, n.Y
	}
	want := map[string]int{"gpu01": 0, "gpu02": 0, "leaf1": 1, "leaf2": 1, "spine1": 2, "spine2": 2}
	for n, tier := range want {
		if got, ok := tierOf[n]; !ok || got != tier {
			t.Errorf("%s in tier %d (present %v), want %d", n, got, ok, tier)
		}
	}
	if !(y["gpu01"] > y["leaf1"] && y["leaf1"] > y["spine1"]) {
		t.Errorf("hosts are not drawn below leaves below spines: %v", y)
	}
	status := map[string]string{}
	for _, n := range d.Nodes {
		status[n.Name] = n.Status
	}
	if status["leaf1"] != "fail" || status["spine2"] != "error" || status["spine1"] != "pass" {
		t.Errorf("node colours %v", status)
	}
	var bad int
	for _, l := range d.Links {
		if l.A == "gpu01:ens1f0np0" && l.B == "leaf1:Ethernet0" {
			bad++
			if l.Status != string(checks.Fail) || l.Anchor != "port-gpu01-ens1f0np0" {
				t.Errorf("gpu01-leaf1 link %+v", l)
			}
		}
	}
	if bad != 1 {
		t.Errorf("gpu01:ens1f0np0 - leaf1:Ethernet0 drawn %d times, want once: %+v", bad, d.Links)
	}
}

func TestAnchorID(t *testing.T) {
	if got := anchorID("port", "leaf4-Ethernet1/3"); got != "port-leaf4-Ethernet1_3" {
		t.Errorf("anchorID = %q", got)
	}
}
