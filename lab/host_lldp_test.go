package lab

import (
	"context"
	"slices"
	"strings"
	"testing"

	linuxcol "github.com/roceaudit/roceaudit/collectors/linux"
	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/topology"
)

// labSnapshot collects every host of a lab with the Linux collector over the hosts' own
// answers, and gives each switch its ports and, when switchLLDP, the neighbours its LLDP
// sees (the switch collectors' own round trips cover how each NOS shows them). SONiC switches
// are collected with the SONiC collector over their answers, so their ports carry the aliases
// CONFIG_DB gives them.
func labSnapshot(t *testing.T, devs []*device, switchLLDP bool) *topology.Snapshot {
	t.Helper()
	s := &topology.Snapshot{}
	p := linuxcol.Platform{}
	for _, d := range devs {
		dev := &topology.Device{Name: d.name, Platform: d.platform, Reachable: true}
		switch {
		case d.host != nil:
			dev.Role = topology.RoleHost
			err := p.Collect(context.Background(), labtest.ExecRunner{Dev: d.host, Allow: p.Allowlist()}, inventory.DeviceSpec{Name: d.name}, dev)
			if err != nil {
				t.Fatalf("%s: %v", d.name, err)
			}
		case d.platform == "sonic":
			dev.Role = topology.RoleSwitch
			dev.Switch = labtest.Collect(t, soniccol.Platform{}, d.dev, d.sw)
			if !switchLLDP {
				dev.Switch.LLDP = topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Error: "LLDP not run"})
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
		if !f.Usable() || len(f.Value) != 2 || f.Source.Error != "" {
			t.Fatalf("%s LLDP: %+v", c.host, f)
		}
		c.want.LocalPort = c.netdev
		if i := slices.IndexFunc(f.Value, func(n topology.LLDPNeighbor) bool { return n.LocalPort == c.netdev }); i < 0 || f.Value[i] != c.want {
			t.Errorf("%s: neighbours %+v, want %+v", c.host, f.Value, c.want)
		}
	}
}

// With switches that run no LLDP, the hosts' view still yields every host cable, leaf1's
// too: SONiC announces a port by its CONFIG_DB alias, which its collector reports; with the
// switches' LLDP too, each cable is one link and nothing is added.
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
		if !f.isSwitch(c[0].device) || !f.isSwitch(c[1].device) {
			hostCables = append(hostCables, l)
		}
	}
	slices.Sort(hostCables)
	slices.Sort(allCables)

	hostOnly := linkSet(topology.ResolveLinks(labSnapshot(t, devs, false)))
	if strings.Join(hostOnly, " ") != strings.Join(hostCables, " ") {
		t.Errorf("host LLDP links\n%v\nwant every host cable\n%v", hostOnly, hostCables)
	}
	onLeaf1 := 0
	for _, l := range hostOnly {
		if strings.Contains(l, "leaf1:") {
			onLeaf1++
		}
	}
	if len(hostCables) != 16 || onLeaf1 != 4 {
		t.Errorf("%d host cables, %d found on leaf1 (SONiC); want 16 host ports, 4 on leaf1", len(hostCables), onLeaf1)
	}

	both := linkSet(topology.ResolveLinks(labSnapshot(t, devs, true)))
	if strings.Join(both, " ") != strings.Join(allCables, " ") {
		t.Errorf("links with switch LLDP\n%v\nwant every cable once\n%v", both, allCables)
	}
}
