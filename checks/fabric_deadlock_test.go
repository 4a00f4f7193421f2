package checks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

func deadlockResults(s *topology.Snapshot, opts Options) []Result {
	opts.Only = []string{"FABRIC-DEADLOCK"}
	return Run(s, opts)
}

func TestClosPassesNamingWhatWasAnalysed(t *testing.T) {
	res := deadlockResults(ecmpFabric(), Options{})
	if len(res) != 1 || res[0].Status != Pass || res[0].Path != "fabric" || res[0].Device != "" {
		t.Fatalf("got %+v", res)
	}
	// gpu01 stands for leaf1 (gpu03 shares it), gpu02 for leaf2: one pair, two spines.
	for _, want := range []string{"4 equal-cost paths between 1 leaf pairs", "8 lossless inter-switch queues of priority 3", "failure of 4 of 4 inter-switch links"} {
		if !strings.Contains(res[0].Actual, want) {
			t.Errorf("actual %q lacks %q", res[0].Actual, want)
		}
	}
}

// withPeerLink joins leaf1 and leaf2 directly, as an MLAG peer link would.
func withPeerLink(s *topology.Snapshot) *topology.Snapshot {
	for _, d := range s.Devices {
		if d.Name == "leaf1" || d.Name == "leaf2" {
			sp := healthySwitchPort("Ethernet1/5")
			sp.MTU.Value = topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216}
			d.Switch.Ports = append(d.Switch.Ports, sp)
		}
	}
	s.Links = append(s.Links, l("leaf1:Ethernet1/5", "leaf2:Ethernet1/5"))
	return s
}

func TestLosslessPeerLinkWithoutCycleWarnsWithEachPlatformsFix(t *testing.T) {
	s := withPeerLink(ecmpFabric())
	fix := func(platform string, in remedy.Input) string {
		return platform + " " + in.CheckID + " fix for " + in.Port
	}
	res := deadlockResults(s, Options{Remedy: fix})
	want := []string{"warn FABRIC-DEADLOCK leaf1:Ethernet1/5 same-tier link leaf1:Ethernet1/5 - leaf2:Ethernet1/5"}
	if diff := cmp.Diff(want, findings(res)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	if res[0].Peer != "leaf2:Ethernet1/5" || !strings.Contains(res[0].Actual, "tier-1") {
		t.Errorf("peer %q actual %q", res[0].Peer, res[0].Actual)
	}
	wantFix := "# leaf1:Ethernet1/5\nnxos FABRIC-DEADLOCK fix for Ethernet1/5\n# leaf2:Ethernet1/5\nnxos FABRIC-DEADLOCK fix for Ethernet1/5"
	if res[0].Remediation != wantFix {
		t.Errorf("remediation %q", res[0].Remediation)
	}
	// A platform without a fix of its own gets the neutral one, naming the port.
	res = deadlockResults(s, Options{})
	if !strings.Contains(res[0].Remediation, "turn PFC off for priority 3 on Ethernet1/5") {
		t.Errorf("remediation %q", res[0].Remediation)
	}
	// Without PFC on the RoCE priority the peer link is lossy: nothing to report.
	for _, d := range s.Devices {
		if d.Name == "leaf1" {
			d.Switch.Port("Ethernet1/5").PFC.Value = topology.SwitchPFC{}
		}
	}
	if f := findings(deadlockResults(s, Options{})); len(f) != 0 {
		t.Errorf("lossy peer link: %v", f)
	}
}

// ringFabric: two leaf pairs on lossless peer links, each leaf uplinked to one spine.
func ringFabric() *topology.Snapshot {
	s := &topology.Snapshot{Recipe: recipe.Default()}
	for _, h := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
		s.Devices = append(s.Devices, hostDev(h))
	}
	for _, sw := range []string{"leaf1", "leaf2", "leaf3", "leaf4"} {
		s.Devices = append(s.Devices, switchDev(sw, "Ethernet1/1", "Ethernet1/2", "Ethernet1/3"))
	}
	s.Devices = append(s.Devices, switchDev("spine1", "Ethernet1", "Ethernet3"), switchDev("spine2", "Ethernet2", "Ethernet4"))
	s.Links = []topology.Link{
		l("gpu01:ens1f0np0", "leaf1:Ethernet1/1"), l("gpu02:ens1f0np0", "leaf2:Ethernet1/1"),
		l("gpu03:ens1f0np0", "leaf3:Ethernet1/1"), l("gpu04:ens1f0np0", "leaf4:Ethernet1/1"),
		l("leaf1:Ethernet1/2", "spine1:Ethernet1"), l("leaf3:Ethernet1/2", "spine1:Ethernet3"),
		l("leaf2:Ethernet1/2", "spine2:Ethernet2"), l("leaf4:Ethernet1/2", "spine2:Ethernet4"),
		l("leaf1:Ethernet1/3", "leaf2:Ethernet1/3"), l("leaf3:Ethernet1/3", "leaf4:Ethernet1/3"),
	}
	return s
}

func TestCycleFailsNamingItsPortsAndThePeerLinksToFix(t *testing.T) {
	res := deadlockResults(ringFabric(), Options{})
	want := []string{
		"fail FABRIC-DEADLOCK leaf1:Ethernet1/2 cycle leaf1:Ethernet1/2 > spine1:Ethernet3 > leaf3:Ethernet1/3 > leaf4:Ethernet1/2 > spine2:Ethernet2 > leaf2:Ethernet1/3 > leaf1:Ethernet1/2",
		"fail FABRIC-DEADLOCK leaf1:Ethernet1/3 cycle leaf1:Ethernet1/3 > leaf2:Ethernet1/2 > spine2:Ethernet4 > leaf4:Ethernet1/3 > leaf3:Ethernet1/2 > spine1:Ethernet1 > leaf1:Ethernet1/3",
		// Without its peer link, a pair's traffic goes round the ring: down into the other
		// pair and up again.
		"warn FABRIC-DEADLOCK leaf1:Ethernet1/3 if leaf1:Ethernet1/3 - leaf2:Ethernet1/3 fails",
		"warn FABRIC-DEADLOCK leaf3:Ethernet1/3 if leaf3:Ethernet1/3 - leaf4:Ethernet1/3 fails",
	}
	if diff := cmp.Diff(want, findings(res)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	for _, r := range res[:2] {
		// Both peer links are on each cycle: turning PFC off on them breaks it; no separate
		// same-tier warning repeats them.
		for _, port := range []string{"# leaf1:Ethernet1/3", "# leaf2:Ethernet1/3", "# leaf3:Ethernet1/3", "# leaf4:Ethernet1/3"} {
			if !strings.Contains(r.Remediation, port) {
				t.Errorf("%s: remediation lacks %s:\n%s", r.Path, port, r.Remediation)
			}
		}
		if r.Evidence == nil || !strings.Contains(r.Actual, "over 6 lossless queues") {
			t.Errorf("%+v", r)
		}
	}
}

func TestUnreadSwitchMakesTheVerdictAnError(t *testing.T) {
	s := ecmpFabric()
	for _, d := range s.Devices {
		if d.Name == "spine2" {
			d.Reachable, d.Switch, d.Error = false, nil, "connection refused"
		}
	}
	res := deadlockResults(s, Options{})[1:] // COLLECT-REACH is reported whatever --only says
	if diff := cmp.Diff([]string{"error FABRIC-DEADLOCK : fabric"}, findings(res)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	for _, want := range []string{"no facts from spine2", "PFC unknown on spine2:Ethernet7", "counted as lossless"} {
		if !strings.Contains(res[0].Message, want) {
			t.Errorf("message %q lacks %q", res[0].Message, want)
		}
	}
	// A cycle found despite the gap still fails; the gap is reported beside it.
	r := ringFabric()
	r.Devices[len(r.Devices)-1].Reachable = false
	got := findings(deadlockResults(r, Options{})[1:])
	if len(got) != 5 || !strings.HasPrefix(got[0], "error") || !strings.HasPrefix(got[1], "fail") {
		t.Errorf("findings %v", got)
	}
}

func TestRestrictedAuditLeavesTheFabricVerdictOut(t *testing.T) {
	res := deadlockResults(ringFabric(), Options{Paths: []PathSpec{{"gpu01", "gpu02"}}, Restrict: true})
	if len(res) != 0 {
		t.Errorf("got %+v", res)
	}
}
