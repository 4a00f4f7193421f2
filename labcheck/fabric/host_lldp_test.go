package fabriccheck

import (
	"context"
	"slices"
	"strings"
	"testing"

	linuxcol "github.com/roceaudit/roceaudit/collectors/linux"
	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// labSnapshot collects every host of a lab with the Linux collector over the hosts' own
// answers, and gives each switch its ports and, when switchLLDP, the neighbours its LLDP
// sees (the switch collectors' own round trips cover how each NOS shows them). SONiC switches
// are collected with the SONiC collector over their answers, so their ports carry the aliases
// CONFIG_DB gives them.
func labSnapshot(t *testing.T, devs []lab.Emulated, switchLLDP bool) *topology.Snapshot {
	t.Helper()
	s := &topology.Snapshot{}
	p := linuxcol.Descriptor()
	for _, d := range devs {
		dev := &topology.Device{Name: d.Name, Platform: d.Platform, Reachable: true}
		switch {
		case d.Host != nil:
			dev.Role = topology.RoleHost
			err := p.Collect(context.Background(), labcheck.ExecRunner{Dev: d.Host, Allow: p.Allowlist()}, inventory.DeviceSpec{Name: d.Name}, dev)
			if err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
		case d.Platform == "sonic":
			dev.Role = topology.RoleSwitch
			dev.Switch = labcheck.Collect(t, soniccol.Descriptor(), d.Device, d.Switch)
			if !switchLLDP {
				dev.Switch.LLDP = topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Error: "LLDP not run"})
			}
		default:
			dev.Role = topology.RoleSwitch
			facts := &topology.SwitchFacts{LLDP: topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Error: "LLDP not run"})}
			var seen []topology.LLDPNeighbor
			for _, port := range d.Switch.Ports {
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
	devs, _, err := lab.Emulate(lab.Options{Scenario: lab.ScenarioHealthy}, 0)
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
		{"gpu01", "ens1f0np0", topology.LLDPNeighbor{SystemName: "leaf1", PortID: "etp1", PortDescr: "gpu01:ens1f0np0", ChassisID: "98:03:9b:10:01:00"}},
		{"gpu02", "ens1f1np1", topology.LLDPNeighbor{SystemName: "leaf2", PortID: "swp2", PortDescr: "swp2", ChassisID: "98:03:9b:10:02:00"}},
		{"gpu07", "ens1f0np0", topology.LLDPNeighbor{SystemName: "leaf3", PortID: "Ethernet3", PortDescr: "gpu07_ens1f0np0", ChassisID: "98:03:9b:10:03:00"}},
		{"gpu08", "ens1f1np1", topology.LLDPNeighbor{SystemName: "leaf4", PortID: "Eth1/4", PortDescr: "gpu08_ens1f1np1", ChassisID: "98:03:9b:10:04:00"}},
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
	devs, _, err := lab.Emulate(lab.Options{Scenario: lab.ScenarioHealthy}, 0)
	if err != nil {
		t.Fatal(err)
	}
	allCables, hostCables := cableLinks()

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

// cableLinks are the fixed fabric's cables as links (linkSet's form, sorted): all of them, and
// those with a host end.
func cableLinks() (all, host []string) {
	for _, c := range lab.Cables() {
		a, b := end(c[0]), end(c[1])
		l := linkSet([]topology.Link{{A: a, B: b}})[0]
		all = append(all, l)
		if !lab.IsSwitch(a.Device) || !lab.IsSwitch(b.Device) {
			host = append(host, l)
		}
	}
	slices.Sort(all)
	slices.Sort(host)
	return all, host
}

// end reads a "device:port" cable end.
func end(s string) topology.PortRef {
	dev, port, _ := strings.Cut(s, ":")
	return topology.PortRef{Device: dev, Interface: port}
}
