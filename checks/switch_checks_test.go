package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func healthySwitchPort(name string) *topology.SwitchPort {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		m[d] = d >> 3
	}
	e := src("show")
	return &topology.SwitchPort{
		Name:           name,
		MTU:            topology.Known(topology.MTU{Configured: 9214, Kind: "ip", Normalized: 9216}, e),
		Trust:          topology.Known("dscp", e),
		DSCPToTC:       topology.Known(m, e),
		PFC:            topology.Known(topology.SwitchPFC{RX: []int{3}, TX: []int{3}}, e),
		PFCWatchdog:    topology.Known(map[int]bool{3: true}, e),
		WatchdogTimers: topology.Known(topology.WatchdogTimers{DetectionMs: 200, RestorationMs: 200, Action: "drop"}, e),
		Pause:          topology.Known(topology.Pause{}, e),
		ECN:            topology.Known(map[int]bool{3: true}, e),
		Scheduler:      topology.Known(map[int]string{3: "dwrr", 6: "strict"}, e),
		DCBX:           topology.Known(topology.DCBX{Mode: "static"}, e),
		Buffer:         topology.Known(topology.Buffer{LosslessPGs: []int{3, 4}}, e),
		Headroom:       topology.Known(sonicHeadroom(40, 92160), e),
		ECNOrder:       topology.Known(sonicOrder(1048576, -3), e),
	}
}

// switchSnap: leaf1 Ethernet1/1 is linked to gpu01 (declared), Ethernet1/2 to spine1 (LLDP,
// short port name), Ethernet1/3 to nothing in the inventory.
func switchSnap(p *topology.SwitchPort) *topology.Snapshot {
	leaf := &topology.Device{Name: "leaf1", Platform: "eos", Role: topology.RoleSwitch, Reachable: true,
		Switch: &topology.SwitchFacts{
			Ports: []*topology.SwitchPort{p, healthySwitchPort("Ethernet1/2"), healthySwitchPort("Ethernet1/3")},
			LLDP: topology.Known([]topology.LLDPNeighbor{
				{LocalPort: "Ethernet1/2", SystemName: "spine1.dc.example", PortID: "Et7"},
				{LocalPort: "Ethernet1/3", SystemName: "outsider", PortID: "Ethernet9"},
			}, src("show lldp neighbors detail | json")),
		}}
	spine := &topology.Device{Name: "spine1", Platform: "eos", Role: topology.RoleSwitch, Reachable: true,
		Switch: &topology.SwitchFacts{Ports: []*topology.SwitchPort{healthySwitchPort("Ethernet7")}}}
	gpu := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true,
		Host: &topology.HostFacts{Ports: []*topology.HostPort{healthyPort()}}}
	return &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{gpu, leaf, spine},
		Links: []topology.Link{{A: topology.PortRef{Device: "gpu01", Interface: "ens1f0np0"}, B: topology.PortRef{Device: "leaf1", Interface: "Ethernet1/1"}, Source: "inventory"}}}
}

func swResults(snap *topology.Snapshot, opts Options) map[string]Result {
	out := map[string]Result{}
	for _, r := range Run(snap, opts) {
		if strings.HasPrefix(r.Check, "SW-") {
			out[r.Check+" "+r.Device+":"+r.Interface] = r
		}
	}
	return out
}

func TestSwitchChecksRunOnLinkedPortsOnly(t *testing.T) {
	res := swResults(switchSnap(healthySwitchPort("Ethernet1/1")), Options{})
	for k, r := range res {
		if r.Status != Pass {
			t.Errorf("%s = %s (%s)", k, r.Status, r.Actual)
		}
		if strings.Contains(k, "Ethernet1/3") {
			t.Errorf("%s: a port to a device outside the inventory must not be audited", k)
		}
	}
	for _, want := range []string{"SW-PFC leaf1:Ethernet1/1", "SW-PFC leaf1:Ethernet1/2", "SW-PFC spine1:Ethernet7"} {
		if _, ok := res[want]; !ok {
			t.Errorf("missing %s (have %d results)", want, len(res))
		}
	}
	if p := res["SW-MTU leaf1:Ethernet1/2"].Peer; p != "spine1:Ethernet7" {
		t.Errorf("peer from LLDP = %q", p)
	}
}

func TestSwitchFaults(t *testing.T) {
	cases := []struct {
		check  string
		status Status
		mut    func(p *topology.SwitchPort)
		actual string
	}{
		{"SW-MTU", Fail, func(p *topology.SwitchPort) {
			p.MTU.Value = topology.MTU{Configured: 9100, Kind: "frame", Normalized: 9100}
		}, "MTU 9100"},
		{"SW-TRUST", Fail, func(p *topology.SwitchPort) { p.Trust.Value = "pcp" }, "trust pcp"},
		{"SW-DSCP-MAP", Fail, func(p *topology.SwitchPort) { p.DSCPToTC.Value[26] = 1 }, "DSCP 26 -> class 1"},
		{"SW-PFC", Fail, func(p *topology.SwitchPort) { p.PFC.Value.TX = []int{3, 4} }, "asymmetric PFC: rx priority 3, tx priorities 3,4"},
		{"SW-PFC-WATCHDOG", Fail, func(p *topology.SwitchPort) { p.PFCWatchdog.Value = map[int]bool{} }, "watchdog on no priority"},
		{"SW-PAUSE", Fail, func(p *topology.SwitchPort) { p.Pause.Value.RX = true }, "pause RX on"},
		{"SW-PFC", Error, func(p *topology.SwitchPort) { p.PFC.Value.Mode = "auto" }, "negotiated (mode auto)"},
		{"SW-ECN", Fail, func(p *topology.SwitchPort) { p.ECN.Value = map[int]bool{0: true, 3: false} }, "queue 3 ECN off"},
		{"SW-ECN", Error, func(p *topology.SwitchPort) { p.ECN.Value = map[int]bool{0: true} }, "queue 3 not reported"},
		{"SW-CNP-QUEUE", Error, func(p *topology.SwitchPort) { delete(p.Scheduler.Value, 6) }, "queue 6 not reported"},
		{"SW-CNP-QUEUE", Fail, func(p *topology.SwitchPort) { p.Scheduler.Value[6] = "dwrr" }, "queue 6 dwrr"},
		{"SW-DCBX", Fail, func(p *topology.SwitchPort) { p.DCBX.Value.Mode = "dcbx" }, "dcbx"},
		{"SW-BUFFER", Fail, func(p *topology.SwitchPort) { p.Buffer.Value.LosslessPGs = nil }, "no lossless buffer on priority group 3"},
		{"SW-PAUSE", Skip, func(p *topology.SwitchPort) {
			p.Pause = topology.Unsupported(p.Pause.Value, "no 802.3x knob", p.Pause.Source)
		}, "not supported"},
		{"SW-DSCP-MAP", Warn, func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Inferred(p.DSCPToTC.Value, "EOS default DSCP map", p.DSCPToTC.Source)
		}, "DSCP 26 -> class 3"},
		{"SW-PFC-WATCHDOG", Skip, func(p *topology.SwitchPort) {
			p.PFC.Value = topology.SwitchPFC{}
			p.PFCWatchdog.Value = map[int]bool{}
		}, "no PFC to watch"},
		{"SW-ECN", Error, func(p *topology.SwitchPort) {
			p.ECN = topology.Unknown[map[int]bool](topology.Evidence{Command: "show qos", Error: "unexpected output"})
		}, "unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.check+"/"+string(tc.status), func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			tc.mut(p)
			res := swResults(switchSnap(p), Options{Remedy: platformFix})
			r := res[tc.check+" leaf1:Ethernet1/1"]
			if r.Status != tc.status || !strings.Contains(r.Actual, tc.actual) {
				t.Fatalf("got %s %q, want %s %q", r.Status, r.Actual, tc.status, tc.actual)
			}
			if r.Status == Fail && r.Remediation != "eos fix for "+tc.check+" on Ethernet1/1 (switch facts of Ethernet1/1)" {
				t.Errorf("remediation %q", r.Remediation)
			}
			if r.Peer != "gpu01:ens1f0np0" {
				t.Errorf("peer %q", r.Peer)
			}
			for k, o := range res {
				if tc.check == "SW-PFC-WATCHDOG" && k == "SW-PFC leaf1:Ethernet1/1" {
					continue // PFC off is the SW-PFC failure; the watchdog has nothing to watch
				}
				if k != tc.check+" leaf1:Ethernet1/1" && o.Status != Pass && o.Status != Skip {
					t.Errorf("side effect: %s = %s", k, o.Status)
				}
			}
		})
	}
}

func TestLinkedPortMissingFromFactsIsError(t *testing.T) {
	snap := switchSnap(healthySwitchPort("Ethernet1/9")) // Ethernet1/1 is linked but not reported
	r := swResults(snap, Options{})["SW-PFC leaf1:ethernet1/1"]
	if r.Status != Error {
		t.Fatalf("got %+v", r)
	}
}

func TestDeclaredLinksAreComparedWithLLDP(t *testing.T) {
	s := switchSnap(healthySwitchPort("Ethernet1/1"))
	s.Links = append(s.Links,
		topology.Link{A: topology.PortRef{Device: "leaf1", Interface: "Ethernet1/2"}, B: topology.PortRef{Device: "spine1", Interface: "Ethernet9"}, Source: "inventory"})
	got := map[string]Result{}
	for _, r := range Run(s, Options{Only: []string{"LINK-LLDP"}}) {
		got[r.Device+":"+r.Interface+">"+r.Peer] = r
	}
	if r := got["gpu01:ens1f0np0>leaf1:Ethernet1/1"]; r.Status != Skip {
		t.Errorf("a link LLDP did not see: %+v", r)
	}
	r := got["leaf1:Ethernet1/2>spine1:Ethernet9"]
	if r.Status != Warn || !strings.Contains(r.Message, "LLDP sees leaf1:Ethernet1/2 - spine1:Ethernet7") {
		t.Errorf("conflict: %+v", r)
	}
	// Paths follow what LLDP sees: the declared Ethernet9 end is not a link.
	for _, l := range topology.ResolveLinks(s) {
		if l.B.Interface == "Ethernet9" || l.A.Interface == "Ethernet9" {
			t.Errorf("a contradicted declaration became a link: %+v", l)
		}
	}
	s.Links[1].B.Interface = "Et7" // now it agrees, in EOS's short form
	for _, r := range Run(s, Options{Only: []string{"LINK-LLDP"}}) {
		if r.Device == "leaf1" && r.Status != Pass {
			t.Errorf("agreeing declaration: %+v", r)
		}
	}
}

// A skip says why the platform cannot express the setting; a warning on an inferred pass says
// what was assumed and shows it in the evidence; a failure on an inferred value quotes the
// assumption too. A read value that passes stays a pass.
func TestSwitchFactStatus(t *testing.T) {
	const reason = "EOS default DSCP map (no `qos map dscp` line)"
	cases := []struct {
		name   string
		mut    func(p *topology.SwitchPort)
		check  string
		status Status
		msg    string
	}{
		{"unsupported", func(p *topology.SwitchPort) {
			p.Pause = topology.Unsupported(topology.Pause{}, "community SONiC has no 802.3x setting", topology.Evidence{Command: "show runningconfiguration all"})
		}, "SW-PAUSE", Skip, "community SONiC has no 802.3x setting"},
		{"inferred pass", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Inferred(p.DSCPToTC.Value, reason, topology.Evidence{Command: "show running-config"})
		}, "SW-DSCP-MAP", Warn, "not configured: assumed from the platform's default (" + reason + "); configure it explicitly or verify on the device"},
		{"inferred fail", func(p *topology.SwitchPort) {
			p.DSCPToTC.Value[26] = 1
			p.DSCPToTC = topology.Inferred(p.DSCPToTC.Value, reason, topology.Evidence{Command: "show running-config"})
		}, "SW-DSCP-MAP", Fail, ""},
		{"known pass", func(p *topology.SwitchPort) {}, "SW-DSCP-MAP", Pass, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			tc.mut(p)
			r := swResults(switchSnap(p), Options{})[tc.check+" leaf1:Ethernet1/1"]
			if r.Status != tc.status || (tc.msg != "" && r.Message != tc.msg) {
				t.Fatalf("got %s %q, want %s %q", r.Status, r.Message, tc.status, tc.msg)
			}
			inferred := strings.HasPrefix(tc.name, "inferred")
			switch {
			case inferred && (r.Evidence == nil || !strings.HasPrefix(r.Evidence.Excerpt, reason) || r.Evidence.Command != "show running-config"):
				t.Errorf("evidence %+v does not lead with the assumption", r.Evidence)
			case !inferred && r.Evidence != nil && strings.Contains(r.Evidence.Excerpt, reason):
				t.Errorf("evidence %+v names an assumption that was not made", r.Evidence)
			}
		})
	}
}
