package lab

import (
	"context"
	"slices"
	"strings"
	"testing"

	linuxcol "github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/topology"
)

// labSnapshot collects every host of a lab with the Linux collector over the hosts' own
// answers, and gives each switch its ports and, when switchLLDP, the neighbours its LLDP
// sees (the switch collectors' own round trips cover how each NOS shows them).
func labSnapshot(t *testing.T, devs []*device, switchLLDP bool) *topology.Snapshot {
	t.Helper()
	s := &topology.Snapshot{}
	p := linuxcol.Platform{}
	for _, d := range devs {
		dev := &topology.Device{Name: d.name, Platform: d.platform, Reachable: true}
		switch {
		case d.host != nil:
			dev.Role = topology.RoleHost
			err := p.Collect(context.Background(), labtest.ExecRunner{Dev: d.host, Allow: p.Allowlist()}, topology.DeviceSpec{Name: d.name}, dev)
			if err != nil {
				t.Fatalf("%s: %v", d.name, err)
			}
		default:
			dev.Role = topology.RoleSwitch
			facts := &topology.SwitchFacts{LLDP: topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Error: "LLDP not run"})}
			var seen []topology.LLDPNeighbor
			for _, port := range d.sw.Ports {
				facts.Ports = append(facts.Ports, &topology.SwitchPort{Name: port.Name})
				if n := port.Neighbor; n != nil {
					seen = append(seen, topology.LLDPNeighbor{LocalPort: port.Name, SystemName: n.SystemName, PortID: n.PortID, PortDescr: n.PortDescr})
				}
			}
			if switchLLDP {
				facts.LLDP = topology.Known(seen, topology.Evidence{})
			}
			dev.Switch = facts
		}
		s.Devices = append(s.Devices, dev)
	}
	return s
}

func linkSet(ls []topology.Link) []string {
	var out []string
	for _, l := range ls {
		a, b := l.A.String(), l.B.String()
		if b < a {
			a, b = b, a
		}
		out = append(out, a+"="+b)
	}
	slices.Sort(out)
	return out
}

// The hosts' lldpd, read by the real collector from the lab's renders, sees the switch on
// each cable as that switch's NOS advertises it.
func TestHostLLDPRoundTrip(t *testing.T) {
	devs, err := build(ScenarioHealthy, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := labSnapshot(t, devs, false)
	byName := map[string]*topology.Device{}
	for _, d := range s.Devices {
		byName[d.Name] = d
	}
	for _, c := range []struct {
		host, netdev string
		want         topology.LLDPNeighbor
	}{
		{"gpu01", "ens1f0np0", topology.LLDPNeighbor{SystemName: "leaf1", PortID: "etp1", PortDescr: "gpu01:ens1f0np0", ChassisID: switchMAC(0)}},
		{"gpu02", "ens1f1np1", topology.LLDPNeighbor{SystemName: "leaf2", PortID: "swp2", PortDescr: "swp2", ChassisID: switchMAC(1)}},
		{"gpu07", "ens1f0np0", topology.LLDPNeighbor{SystemName: "leaf3", PortID: "Ethernet3", PortDescr: "gpu07_ens1f0np0", ChassisID: switchMAC(2)}},
		{"gpu08", "ens1f1np1", topology.LLDPNeighbor{SystemName: "leaf4", PortID: "Eth1/4", PortDescr: "gpu08_ens1f1np1", ChassisID: switchMAC(3)}},
	} {
		f := byName[c.host].Host.LLDP
		if !f.Known || len(f.Value) != 2 || f.Source.Error != "" {
			t.Fatalf("%s LLDP: %+v", c.host, f)
		}
		c.want.LocalPort = c.netdev
		if i := slices.IndexFunc(f.Value, func(n topology.LLDPNeighbor) bool { return n.LocalPort == c.netdev }); i < 0 || f.Value[i] != c.want {
			t.Errorf("%s: neighbours %+v, want %+v", c.host, f.Value, c.want)
		}
	}
}

// With switches that run no LLDP, the hosts' view still yields every host cable to a leaf
// whose advertisement names the port (SONiC's alias and description name none of leaf1's
// ports); with the switches' LLDP too, each cable is one link and nothing is added.
func TestHostLLDPLinksInTheLab(t *testing.T) {
	devs, err := build(ScenarioHealthy, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := fixedFabric()
	var hostCables, allCables []string
	for _, c := range f.cables {
		l := linkSet([]topology.Link{{A: topology.PortRef{Device: c[0].device, Interface: c[0].port},
			B: topology.PortRef{Device: c[1].device, Interface: c[1].port}}})[0]
		allCables = append(allCables, l)
		if !f.isSwitch(c[0].device) && c[1].device != "leaf1" {
			hostCables = append(hostCables, l)
		}
	}
	slices.Sort(hostCables)
	slices.Sort(allCables)

	hostOnly := linkSet(topology.ResolveLinks(labSnapshot(t, devs, false)))
	if strings.Join(hostOnly, " ") != strings.Join(hostCables, " ") {
		t.Errorf("host LLDP links\n%v\nwant the host cables not on leaf1\n%v", hostOnly, hostCables)
	}
	if len(hostCables) != 12 {
		t.Errorf("%d host cables off leaf1, want 12 (16 host ports, 4 on leaf1)", len(hostCables))
	}

	both := linkSet(topology.ResolveLinks(labSnapshot(t, devs, true)))
	if strings.Join(both, " ") != strings.Join(allCables, " ") {
		t.Errorf("links with switch LLDP\n%v\nwant every cable once\n%v", both, allCables)
	}
}
