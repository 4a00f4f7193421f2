package checks

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func hostDev(name string) *topology.Device {
	p := healthyPort()
	return &topology.Device{Name: name, Platform: "linux", Role: topology.RoleHost, Reachable: true,
		Host: healthyHost(p)}
}

func switchDev(name string, ports ...string) *topology.Device {
	d := &topology.Device{Name: name, Platform: "nxos", Role: topology.RoleSwitch, Reachable: true, Switch: &topology.SwitchFacts{}}
	for _, p := range ports {
		sp := healthySwitchPort(p)
		sp.MTU.Value = topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216}
		d.Switch.Ports = append(d.Switch.Ports, sp)
	}
	return d
}

func l(a, b string) topology.Link {
	ad, ai, _ := strings.Cut(a, ":")
	bd, bi, _ := strings.Cut(b, ":")
	return topology.Link{A: topology.PortRef{Device: ad, Interface: ai}, B: topology.PortRef{Device: bd, Interface: bi}, Source: "inventory"}
}

// ecmpFabric: gpu01 - leaf1 - {spine1, spine2} - leaf2 - gpu02, and gpu03 on leaf1.
func ecmpFabric() *topology.Snapshot {
	return &topology.Snapshot{Recipe: recipe.Default(),
		Devices: []*topology.Device{hostDev("gpu01"), hostDev("gpu02"), hostDev("gpu03"),
			switchDev("leaf1", "Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"),
			switchDev("leaf2", "Ethernet1/1", "Ethernet1/2", "Ethernet1/4"),
			switchDev("spine1", "Ethernet7", "Ethernet8"), switchDev("spine2", "Ethernet7", "Ethernet8")},
		Links: []topology.Link{
			l("gpu01:ens1f0np0", "leaf1:Ethernet1/1"), l("gpu03:ens1f0np0", "leaf1:Ethernet1/3"),
			l("leaf1:Ethernet1/2", "spine1:Ethernet7"), l("leaf1:Ethernet1/4", "spine2:Ethernet7"),
			l("spine1:Ethernet8", "leaf2:Ethernet1/2"), l("spine2:Ethernet8", "leaf2:Ethernet1/4"),
			l("leaf2:Ethernet1/1", "gpu02:ens1f0np0"),
		}}
}

func findings(res []Result) []string {
	var out []string
	for _, r := range res {
		if r.Status != Pass && r.Status != Skip {
			out = append(out, string(r.Status)+" "+r.Check+" "+r.Device+":"+r.Interface+" "+r.Path)
		}
	}
	sort.Strings(out)
	return out
}

func swPort(s *topology.Snapshot, dev, port string) *topology.SwitchPort {
	for _, d := range s.Devices {
		if d.Name == dev {
			return d.Switch.Port(port)
		}
	}
	return nil
}

func TestOneECMPMemberWithABadMTUShowsOnThatPathAlone(t *testing.T) {
	s := ecmpFabric()
	swPort(s, "spine2", "Ethernet8").MTU.Value = topology.MTU{Configured: 9000, Kind: "frame", Normalized: 9000}
	res := Run(s, Options{Paths: []PathSpec{{"gpu01:ens1f0np0", "gpu02:ens1f0np0"}}})
	want := []string{
		"fail LINK-MTU spine2:Ethernet8 ",
		"fail PATH-MTU spine2:Ethernet8 gpu01:ens1f0np0->gpu02:ens1f0np0 via leaf1>spine2>leaf2",
		"fail SW-MTU spine2:Ethernet8 ",
	}
	if diff := cmp.Diff(want, findings(res)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	var resolved []string
	for _, r := range res {
		if r.Check == "PATH-RESOLVED" || r.Check == "PATH-MTU" {
			resolved = append(resolved, string(r.Status)+" "+r.Check+" "+r.Actual)
		}
	}
	if len(resolved) != 3 || !strings.Contains(resolved[0], "2 equal-cost path(s) via leaf1>spine1>leaf2, leaf1>spine2>leaf2") {
		t.Errorf("%q", resolved)
	}
}

func TestRestrictedAuditLooksOnlyAtPathHops(t *testing.T) {
	s := ecmpFabric()
	s.Devices[2].Host.Ports[0].Pause.Value.RX = true // gpu03: off the path
	swPort(s, "leaf1", "Ethernet1/3").PFC.Value.TX = []int{3, 4}
	res := Run(s, Options{Paths: []PathSpec{{"gpu01", "gpu02"}}, Restrict: true})
	for _, r := range res {
		if r.Device == "gpu03" || r.Interface == "Ethernet1/3" || r.Peer == "gpu03:ens1f0np0" {
			t.Errorf("off-path result %s %s:%s", r.Check, r.Device, r.Interface)
		}
	}
	if f := findings(res); len(f) != 0 {
		t.Errorf("unexpected findings %v", f)
	}
	want := []string{"fail HOST-PAUSE gpu03:ens1f0np0 ", "fail LINK-PFC gpu03:ens1f0np0 ", "fail SW-PFC leaf1:Ethernet1/3 "}
	if diff := cmp.Diff(want, findings(Run(s, Options{}))); diff != "" {
		t.Errorf("the unrestricted audit must see them (-want +got)\n%s", diff)
	}
}

func TestDCBXMixAndLinkPFCAndUnresolvedPaths(t *testing.T) {
	s := ecmpFabric()
	swPort(s, "leaf2", "Ethernet1/1").DCBX.Value.Mode = "dcbx"
	s.Devices[1].Host.Ports[0].QoS.Value.PFC[4] = true // gpu02 PFC 3,4 vs leaf2 3
	s.Links = s.Links[:len(s.Links)-1]                 // and now gpu02 hangs off nothing...
	res := Run(s, Options{Paths: []PathSpec{{"gpu01", "gpu02"}, {"gpu01", "nosuch"}}})
	want := []string{
		"error PATH-RESOLVED gpu01: gpu01->nosuch",
		"fail HOST-PFC gpu02:ens1f0np0 ",
		"fail PATH-RESOLVED gpu01: gpu01->gpu02",
	}
	if diff := cmp.Diff(want, findings(res)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	s.Links = ecmpFabric().Links
	res = Run(s, Options{Paths: []PathSpec{{"gpu01", "gpu02"}}})
	want = []string{
		"fail HOST-PFC gpu02:ens1f0np0 ",
		"fail LINK-PFC leaf2:Ethernet1/1 ",
		"fail PATH-DCBX-MIX leaf2:Ethernet1/1 gpu01->gpu02 via leaf1>spine1>leaf2",
		"fail PATH-DCBX-MIX leaf2:Ethernet1/1 gpu01->gpu02 via leaf1>spine2>leaf2",
		"fail SW-DCBX leaf2:Ethernet1/1 ",
	}
	if diff := cmp.Diff(want, findings(res)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestDCBXMixCannotPassWithAnUnknownHop(t *testing.T) {
	s := ecmpFabric()
	swPort(s, "spine1", "Ethernet7").DCBX = topology.Unknown[topology.DCBX](topology.Evidence{Command: "show", Error: "parse error"})
	var got []string
	for _, r := range Run(s, Options{Paths: []PathSpec{{"gpu01", "gpu02"}}, Only: []string{"PATH-DCBX-MIX"}}) {
		got = append(got, string(r.Status)+" "+r.Path+" "+r.Message)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "error gpu01->gpu02 via leaf1>spine1>leaf2 the DCB regime of spine1:Ethernet7 is unknown") ||
		!strings.HasPrefix(got[1], "pass gpu01->gpu02 via leaf1>spine2>leaf2") {
		t.Errorf("%q", got)
	}
}
