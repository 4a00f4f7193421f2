package switchcollect

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func ethernet(n string) bool { return strings.HasPrefix(n, "Ethernet") }

func portsOf(sw *topology.SwitchFacts) []string {
	var out []string
	for _, p := range sw.Ports {
		out = append(out, p.Name)
	}
	return out
}

func TestFill(t *testing.T) {
	ns := []topology.LLDPNeighbor{{LocalPort: "Ethernet10"}, {LocalPort: "Management1"}, {LocalPort: "Ethernet2"}, {LocalPort: "Ethernet2"}}
	dev := &topology.Device{}
	var built []string
	err := Switch{Platform: "demo", NOS: "Demo OS 1.0", LLDPCommand: "show lldp", LLDP: ns, FrontPanel: ethernet,
		Config: "running-config", Configured: []string{"Ethernet1", "Ethernet10", "Port-Channel1"},
	}.Fill(dev, func(name string) *topology.SwitchPort {
		built = append(built, name)
		return &topology.SwitchPort{Name: name}
	})
	if err != nil {
		t.Fatal(err)
	}
	// Configured names are taken as given; LLDP ports only when front-panel; each once, in
	// natural order.
	want := []string{"Ethernet1", "Ethernet2", "Ethernet10", "Port-Channel1"}
	if d := cmp.Diff(want, portsOf(dev.Switch)); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, built); d != "" {
		t.Errorf("built (-want +got):\n%s", d)
	}
	if dev.Switch.NOS != "Demo OS 1.0" {
		t.Errorf("NOS %q", dev.Switch.NOS)
	}
	l := dev.Switch.LLDP
	if !l.Usable() || len(l.Value) != 4 || l.Source != (topology.Evidence{Command: "show lldp", Excerpt: "4 LLDP neighbours"}) {
		t.Errorf("LLDP fact %+v", l)
	}
}

func TestFillUnknownLLDP(t *testing.T) {
	dev := &topology.Device{}
	err := Switch{Platform: "demo", LLDPCommand: "show lldp", LLDPErr: errors.New("show lldp: not JSON"), FrontPanel: ethernet,
		Config: "running-config", Configured: []string{"Ethernet1"},
	}.Fill(dev, func(name string) *topology.SwitchPort { return &topology.SwitchPort{Name: name} })
	if err != nil {
		t.Fatal(err)
	}
	l := dev.Switch.LLDP
	if l.Usable() || l.Source != (topology.Evidence{Command: "show lldp", Error: "show lldp: not JSON"}) {
		t.Errorf("LLDP fact %+v", l)
	}
	if d := cmp.Diff([]string{"Ethernet1"}, portsOf(dev.Switch)); d != "" {
		t.Errorf("ports from the configuration alone (-want +got):\n%s", d)
	}
}

// No port to audit is always an error (the audit of that switch is incomplete); dev.Switch is
// set anyway.
func TestFillNoPort(t *testing.T) {
	never := func(string) *topology.SwitchPort { t.Fatal("no port to build"); return nil }
	dev := &topology.Device{}
	err := Switch{Platform: "demo", LLDPCommand: "show lldp", LLDPErr: errors.New("EOF"), FrontPanel: ethernet,
		Config: "running-config", ConfigErr: errors.New("denied")}.Fill(dev, never)
	want := "demo: no port to audit: LLDP (EOF) and running-config (denied) both unreadable"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if dev.Switch == nil || len(dev.Switch.Ports) != 0 || dev.Switch.Ports == nil {
		t.Errorf("switch facts %+v", dev.Switch)
	}
	// LLDP read, no neighbour, config unreadable: still no port, and it says why.
	dev = &topology.Device{}
	err = Switch{Platform: "demo", LLDPCommand: "show lldp", FrontPanel: ethernet,
		Config: "running-config", ConfigErr: errors.New("denied")}.Fill(dev, never)
	want = "demo: no port to audit: no front-panel port has an LLDP neighbour or its own configuration (running-config unreadable: denied)"
	if err == nil || err.Error() != want || dev.Switch == nil || len(dev.Switch.Ports) != 0 {
		t.Errorf("got %v, %+v", err, dev.Switch)
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"  short\n", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"  eleven chars  ", 6, "eleven…"},
	} {
		if got := Excerpt(tc.in, tc.max); got != tc.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestUnknownConfig(t *testing.T) {
	mtu := topology.Known(topology.MTU{Configured: 9214}, topology.Evidence{Command: "show interfaces"})
	p := &topology.SwitchPort{Name: "Ethernet1", MTU: mtu}
	e := topology.Evidence{Command: "show running-config", Error: "denied"}
	UnknownConfig(p, e)
	want := &topology.SwitchPort{Name: "Ethernet1", MTU: mtu,
		Trust:       topology.Unknown[string](e),
		DSCPToTC:    topology.Unknown[map[int]int](e),
		TCToQueue:   topology.Unknown[map[int]int](e),
		PFC:         topology.Unknown[topology.SwitchPFC](e),
		PFCWatchdog: topology.Unknown[map[int]bool](e),
		ECN:         topology.Unknown[map[int]bool](e),
		Scheduler:   topology.Unknown[map[int]string](e),
		DCBX:        topology.Unknown[topology.DCBX](e),
		Buffer:      topology.Unknown[topology.Buffer](e),
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
