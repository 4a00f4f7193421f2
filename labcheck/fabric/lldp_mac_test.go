package fabriccheck

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// The lab's switches see each host port the way stock lldpd announces it, by its MAC: each
// switch's real collector, over its emulator's answers, reads the MAC as that NOS spells it
// (colons on SONiC and Cumulus, dotted on EOS and NX-OS), and with neither the hosts' LLDP
// nor the port descriptions every host cable is still found, on the netdev with that MAC.
func TestSwitchesSeeHostsByMAC(t *testing.T) {
	devs, _, err := lab.Emulate(lab.Options{Scenario: lab.ScenarioHealthy}, 0)
	if err != nil {
		t.Fatal(err)
	}
	reg := platforms.Registry()
	s := &topology.Snapshot{}
	spelled := map[string]bool{}
	for _, d := range devs {
		p, ok := reg.Get(d.Platform)
		if !ok {
			t.Fatalf("%s: no collector for %s", d.Name, d.Platform)
		}
		dev := &topology.Device{Name: d.Name, Platform: d.Platform, Reachable: true}
		if d.Host != nil {
			dev.Role = topology.RoleHost
			err := p.Collect(context.Background(), labcheck.ExecRunner{Dev: d.Host, Allow: p.Allowlist()}, inventory.DeviceSpec{Name: d.Name}, dev)
			if err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
			dev.Host.LLDP = topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Error: "lldpd not running"})
		} else {
			dev.Role = topology.RoleSwitch
			dev.Switch = labcheck.Collect(t, p, d.Device, d.Switch)
			for i, n := range dev.Switch.LLDP.Value {
				if strings.HasPrefix(n.SystemName, "gpu") {
					spelled[d.Platform+" "+macSpelling(n.PortID)] = true
				}
				dev.Switch.LLDP.Value[i].PortDescr = "" // the MAC alone must name the netdev
			}
		}
		s.Devices = append(s.Devices, dev)
	}
	want := []string{"cumulus colon", "eos dotted", "nxos dotted", "sonic colon"}
	if got := slices.Sorted(func(yield func(string) bool) {
		for k := range spelled {
			if !yield(k) {
				return
			}
		}
	}); strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("host port IDs spelled %v, want %v", got, want)
	}

	_, hostCables := cableLinks()
	var got []string
	for _, l := range linkSet(topology.ResolveLinks(s)) {
		if strings.Contains(l, "gpu") {
			got = append(got, l)
		}
	}
	if strings.Join(got, " ") != strings.Join(hostCables, " ") || len(got) != 16 {
		t.Errorf("host links\n%v\nwant every host cable\n%v", got, hostCables)
	}
}

// macSpelling names how a port ID spells a MAC: "colon" (0c:42:...), "dotted" (0c42.a16b...)
// or "other".
func macSpelling(id string) string {
	switch {
	case len(id) == 17 && strings.Count(id, ":") == 5:
		return "colon"
	case len(id) == 14 && strings.Count(id, ".") == 2:
		return "dotted"
	}
	return "other"
}
