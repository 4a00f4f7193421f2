package lab

import (
	"testing"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// gpu03's slave PFs face two leaves: each slave's lldpd sees its own leaf, and each leaf sees
// the slave by its permanent MAC, as stock lldpd announces a bond slave, not the bond's MAC.
func TestHostVariantsLAGSlavesFaceTwoLeaves(t *testing.T) {
	devs, err := build(ScenarioHostVariants, 0)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*device{}
	for _, d := range devs {
		byName[d.name] = d
	}
	h := byName["gpu03"].host
	for _, c := range []struct{ slave, leaf, port string }{
		{linuxhost.Port0, "leaf1", "Ethernet8"}, {linuxhost.Port1, "leaf2", "swp3"},
	} {
		nd := h.Netdev(c.slave)
		if nd.Master != "bond0" || nd.PermMAC == nil {
			t.Fatalf("%s is not a bond slave with its own MAC: %+v", c.slave, nd)
		}
		if ns := h.LLDPNeighbors[c.slave]; len(ns) != 1 || ns[0].SysName != c.leaf {
			t.Errorf("%s's lldpd sees %+v, want %s", c.slave, ns, c.leaf)
		}
		n := byName[c.leaf].sw.Port(c.port).Neighbor
		if n == nil || n.SystemName != "gpu03" || n.PortID != nd.PermMAC.String() || n.PortDescr != c.slave {
			t.Errorf("%s:%s sees %+v, want %s by %s", c.leaf, c.port, n, c.slave, nd.PermMAC)
		}
	}
	// The bond took the first slave's MAC: the second slave announces a MAC the bond lacks.
	if bond, second := h.Netdev("bond0").MAC.String(), byName["leaf2"].sw.Port("swp3").Neighbor.PortID; bond == second {
		t.Errorf("leaf2 sees the second slave by the bond's MAC %s", bond)
	}
}
