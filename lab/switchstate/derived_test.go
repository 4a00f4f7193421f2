package switchstate

import (
	"net"
	"slices"
	"testing"
)

func TestSortedPortsIsNatural(t *testing.T) {
	sw := HealthySwitch("s", "eos", "m", "v", "", 9214, "Ethernet10", "Ethernet1/10", "Ethernet2", "Ethernet1/2", "Ethernet1")
	var got []string
	for _, p := range sw.SortedPorts() {
		got = append(got, p.Name)
	}
	want := []string{"Ethernet1", "Ethernet1/2", "Ethernet1/10", "Ethernet2", "Ethernet10"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if sw.Ports[0].Name != "Ethernet10" {
		t.Error("SortedPorts reordered the state's own slice")
	}
}

func TestNaturalLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"swp2", "swp10", true},
		{"swp10", "swp2", false},
		{"swp1", "swp1s0", true},
		{"swp01", "swp1", false}, // equal numbers: the rest decides
		{"a", "b", true},
	} {
		if got := NaturalLess(c.a, c.b); got != c.less {
			t.Errorf("NaturalLess(%q, %q) = %v, want %v", c.a, c.b, got, c.less)
		}
	}
}

func TestPortMAC(t *testing.T) {
	def := net.HardwareAddr{0x44, 0x4c, 0xa8, 0, 0, 0}
	sw := &Switch{MAC: "50:87:89:a1:d8:ff"}
	if got := sw.PortMAC(def, 0).String(); got != "50:87:89:a1:d9:00" {
		t.Errorf("PortMAC 0 = %s, want the carry into the fifth byte", got)
	}
	if got := sw.BaseMAC(def).String(); got != "50:87:89:a1:d8:ff" {
		t.Errorf("BaseMAC = %s, PortMAC changed it", got)
	}
	if got := (&Switch{MAC: "not a mac"}).PortMAC(def, 2).String(); got != "44:4c:a8:00:00:03" {
		t.Errorf("PortMAC from the default = %s", got)
	}
	if def.String() != "44:4c:a8:00:00:00" {
		t.Errorf("PortMAC changed the default to %s", def)
	}
}

func TestPFCAndWatchdogViews(t *testing.T) {
	p := HealthyPort("Ethernet1", 100, 9216)
	p.PFCTX[4] = true
	if got := p.PFCPriorities(); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("PFCPriorities = %v, want rx and tx merged: [3 4]", got)
	}
	if !p.WatchdogOn() {
		t.Error("WatchdogOn is off on a healthy port")
	}
	p.Watchdog = [8]bool{}
	if p.WatchdogOn() {
		t.Error("WatchdogOn is on with no priority watched")
	}
}

func TestMajority(t *testing.T) {
	mtu := func(p *Port) int { return p.MTU }
	sw := HealthySwitch("s", "nxos", "m", "v", "", 9216, "a", "b", "c", "d")
	sw.Ports[0].MTU, sw.Ports[1].MTU = 1500, 9000
	if got := Majority(sw.Ports, 0, mtu); got != 9216 {
		t.Errorf("Majority = %d, want 9216", got)
	}
	sw.Ports[2].MTU = 1500
	sw.Ports[3].MTU = 9000
	if got := Majority(sw.Ports, 0, mtu); got != 1500 {
		t.Errorf("Majority on a tie = %d, want 1500, the first to reach the top count", got)
	}
	if got := Majority(nil, 42, mtu); got != 42 {
		t.Errorf("Majority without ports = %d, want the default", got)
	}
}

func TestCheckPortsNamesSwitchAndPort(t *testing.T) {
	sw := HealthySwitch("leaf9", "eos", "m", "v", "", 9214, "Ethernet1", "Ethernet2")
	sw.Ports[1].MTU = 1500
	err := sw.CheckPorts("eos", func(sw *Switch, p *Port, bad func(string, ...any)) {
		if p.MTU != 9214 {
			bad("MTU %d on %s", p.MTU, sw.Name)
		}
	})
	if err == nil || err.Error() != "eos leaf9 Ethernet2: MTU 1500 on leaf9" {
		t.Errorf("CheckPorts = %v", err)
	}
	if err := sw.CheckPorts("eos", func(*Switch, *Port, func(string, ...any)) {}); err != nil {
		t.Errorf("CheckPorts without a problem = %v", err)
	}
}
