package eos

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

var ignoreExcerpt = cmpopts.IgnoreFields(topology.Evidence{}, "Excerpt")

func collect(t *testing.T, r *fakeRunner) *topology.SwitchFacts {
	t.Helper()
	dev := &topology.Device{Name: "leaf", Platform: "eos", Role: topology.RoleSwitch}
	if err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{Name: "leaf"}, dev); err != nil {
		t.Fatal(err)
	}
	if dev.Switch == nil {
		t.Fatal("no switch facts")
	}
	return dev.Switch
}

func portNamesOf(sw *topology.SwitchFacts) []string {
	var n []string
	for _, p := range sw.Ports {
		n = append(n, p.Name)
	}
	return n
}

func known[T any](v T, cmd string) topology.Fact[T] {
	return topology.Known(v, topology.Evidence{Command: cmd})
}

func inferred[T any](v T, cmd, reason string) topology.Fact[T] {
	return topology.Inferred(v, reason, topology.Evidence{Command: cmd})
}

func allQueues[T any](v T) map[int]T {
	m := map[int]T{}
	for q := 0; q < 8; q++ {
		m[q] = v
	}
	return m
}

func identity() map[int]int {
	m := map[int]int{}
	for q := 0; q < 8; q++ {
		m[q] = q
	}
	return m
}

// healthyPort is what a correctly configured RoCE port looks like on the healthy leaf.
func healthyPort(name string, mtu int, trust string, profile string, counters map[string]int64) *topology.SwitchPort {
	ecn := allQueues(false)
	ecn[3] = true
	return &topology.SwitchPort{
		Name:  name,
		Speed: known(100.0, CmdInterfaces),
		MTU:   known(topology.MTU{Configured: mtu, Kind: "ip", Normalized: 9216}, CmdInterfaces),
		Trust: known(trust, CmdRunningConfig),
		DSCPToTC: inferred(DefaultDSCPToTC(), CmdRunningConfig,
			"EOS default DSCP map (no `qos map dscp` line: DSCP 24-31 -> traffic-class 3, 48-55 -> 6); verify with `show qos maps`"),
		TCToQueue: inferred(identity(), CmdRunningConfig,
			"EOS default: traffic class N uses tx-queue N (no `qos map traffic-class ... to tx-queue` line)"),
		PFC:         known(topology.SwitchPFC{RX: []int{3}, TX: []int{3}}, CmdRunningConfig),
		PFCWatchdog: known(allQueues(true), CmdRunningConfig),
		// priority-flow-control pause watchdog default timeout 0.05 / recovery-time 1.1, action drop
		WatchdogTimers: known(topology.WatchdogTimers{DetectionMs: 50, RestorationMs: 1100, Action: "drop"}, CmdRunningConfig),
		Pause:          known(topology.Pause{}, CmdFlowcontrol),
		ECN:            known(ecn, CmdRunningConfig),
		Scheduler:      known(allQueues("strict"), CmdRunningConfig),
		DCBX:           known(topology.DCBX{Mode: "static", Detail: "no dcbx mode (DCBX off, the EOS default)"}, CmdRunningConfig),
		Buffer:         known(topology.Buffer{LosslessPGs: []int{3}, Profile: profile}, CmdRunningConfig),
		Headroom:       topology.Unsupported(topology.Headroom{}, noBufferSizes, topology.Evidence{Command: CmdRunningConfig}),
		// The ECN thresholds are read and named; there is no PFC trigger to order them against.
		ECNOrder: topology.Unsupported(topology.ECNOrder{}, "ECN thresholds are configured (tx-queue 3: random-detect ecn minimum-threshold 150 kbytes "+
			"maximum-threshold 1500 kbytes max-mark-probability 20) "+noPFCTrigger, topology.Evidence{Command: CmdRunningConfig}),
		Counters: known(counters, CmdInterfaces),
	}
}

func TestCollectHealthy(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy"}
	sw := collect(t, r)
	if d := cmp.Diff(commands, r.Sent); d != "" {
		t.Errorf("commands sent (-plan +sent):\n%s", d)
	}
	if sw.NOS != "Arista EOS 4.28.3M (DCS-7050CX3-32S)" {
		t.Errorf("NOS %q", sw.NOS)
	}
	if d := cmp.Diff([]string{"Ethernet1", "Ethernet2", "Ethernet31/1"}, portNamesOf(sw)); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	want := []*topology.SwitchPort{
		healthyPort("Ethernet1", 9214, "dscp", "QOS_ROCE_DCQCN", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 1204, "pfc_tx_frames": 0,
			"rx_bytes": 73418120934, "tx_bytes": 70233419027, "rx_packets": 8101442, "tx_packets": 7902113}),
		healthyPort("Ethernet2", 9214, "dscp", "QOS_ROCE_DCQCN", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 0, "pfc_tx_frames": 311}),
		healthyPort("Ethernet31/1", 9214, "dscp", "", map[string]int64{"rx_pause": 0, "tx_pause": 0, "pfc_rx_frames": 52, "pfc_tx_frames": 977}),
	}
	if d := cmp.Diff(want, sw.Ports, ignoreExcerpt); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	if !sw.LLDP.Usable() || len(sw.LLDP.Value) != 4 {
		t.Errorf("LLDP: %+v", sw.LLDP)
	}
	// Evidence must show where a value came from.
	e1 := sw.Port("Ethernet1")
	for _, c := range []struct{ name, excerpt, want string }{
		{"pfc", e1.PFC.Source.Excerpt, "priority-flow-control priority 3 no-drop"},
		{"trust", e1.Trust.Source.Excerpt, "service-profile QOS_ROCE_DCQCN"},
		{"dscp", e1.DSCPToTC.Reason, "EOS default DSCP map"},
		{"mtu", e1.MTU.Source.Excerpt, `"mtu": 9214`},
		{"pause", e1.Pause.Source.Excerpt, "Et1 "},
	} {
		if !strings.Contains(c.excerpt, c.want) {
			t.Errorf("%s evidence %q lacks %q", c.name, c.excerpt, c.want)
		}
	}
}

func TestCollectBroken(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "broken"})
	if d := cmp.Diff([]string{"Ethernet1/1", "Ethernet2/1", "Ethernet3/1", "Ethernet4/1", "Ethernet5/1", "Ethernet6/1", "Ethernet7/1", "Ethernet8/1"}, portNamesOf(sw)); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	// The global map moves DSCP 26 out of the RoCE class on every port.
	for _, p := range sw.Ports {
		if p.DSCPToTC.Value[26] != 1 || p.DSCPToTC.Value[48] != 6 {
			t.Errorf("%s DSCP map: 26->%d 48->%d", p.Name, p.DSCPToTC.Value[26], p.DSCPToTC.Value[48])
		}
		// The refused PFC counter command leaves the 802.3x counters and says why.
		if !p.Counters.Usable() || !strings.Contains(p.Counters.Source.Excerpt, "Unavailable command") {
			t.Errorf("%s counters: %+v", p.Name, p.Counters)
		}
	}
	type row struct {
		port string
		fact func(*topology.SwitchPort) any
		want any
	}
	ecnOff := allQueues(false)
	rr := allQueues("wrr")
	for _, r := range []row{
		{"Ethernet1/1", func(p *topology.SwitchPort) any { return p.MTU.Value }, topology.MTU{Configured: 1500, Kind: "ip", Normalized: 1500}},
		{"Ethernet2/1", func(p *topology.SwitchPort) any { return p.Trust.Value }, "pcp"},
		{"Ethernet3/1", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{3, 4}, TX: []int{3, 4}}},
		{"Ethernet4/1", func(p *topology.SwitchPort) any { return p.PFCWatchdog.Value }, allQueues(false)},
		{"Ethernet5/1", func(p *topology.SwitchPort) any { return p.Pause.Value }, topology.Pause{RX: true, TX: true}},
		{"Ethernet5/1", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{}, TX: []int{}}},
		{"Ethernet5/1", func(p *topology.SwitchPort) any { return p.Trust.Value }, "pcp"}, // switched port default
		{"Ethernet5/1", func(p *topology.SwitchPort) any { return p.Buffer.Value }, topology.Buffer{LosslessPGs: []int{}}},
		{"Ethernet5/1", func(p *topology.SwitchPort) any { return p.Counters.Value["rx_pause"] }, int64(18231)},
		{"Ethernet6/1", func(p *topology.SwitchPort) any { return p.ECN.Value }, ecnOff},
		{"Ethernet7/1", func(p *topology.SwitchPort) any { return p.Scheduler.Value }, rr},
		{"Ethernet8/1", func(p *topology.SwitchPort) any { return p.DCBX.Value }, topology.DCBX{Mode: "dcbx", Detail: "dcbx mode ieee"}},
		{"Ethernet8/1", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{3}, TX: []int{3}}},
	} {
		p := sw.Port(r.port)
		if d := cmp.Diff(r.want, r.fact(p)); d != "" {
			t.Errorf("%s (-want +got):\n%s", r.port, d)
		}
	}
	if !strings.Contains(sw.Port("Ethernet2/1").Trust.Source.Excerpt, "qos trust cos") {
		t.Errorf("trust evidence: %q", sw.Port("Ethernet2/1").Trust.Source.Excerpt)
	}
}

func TestCollectFailuresBecomeUnknown(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy",
		Fail:     map[string]error{CmdRunningConfig: errors.New("session closed")},
		Override: map[string]collectors.Output{CmdFlowcontrol: {Stdout: "% Invalid input\n"}}}
	sw := collect(t, r)
	// Without the config, ports still come from LLDP.
	if d := cmp.Diff([]string{"Ethernet1", "Ethernet2", "Ethernet31/1"}, portNamesOf(sw)); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	p := sw.Port("Ethernet1")
	if !p.MTU.Usable() {
		t.Error("MTU comes from show interfaces, which worked")
	}
	for name, f := range map[string]topology.Evidence{
		"trust": p.Trust.Source, "pfc": p.PFC.Source, "ecn": p.ECN.Source, "dcbx": p.DCBX.Source, "buffer": p.Buffer.Source,
	} {
		if f.Command != CmdRunningConfig || !strings.Contains(f.Error, "session closed") {
			t.Errorf("%s evidence: %+v", name, f)
		}
	}
	if p.Trust.Usable() || p.PFC.Usable() || p.Pause.Usable() {
		t.Error("facts without a source must be unknown")
	}
	if !strings.Contains(p.Pause.Source.Error, CmdFlowcontrol) || !strings.Contains(p.Pause.Source.Error, "Invalid input") {
		t.Errorf("pause evidence: %+v", p.Pause.Source)
	}
}

func TestCollectNothingReadable(t *testing.T) {
	fail := map[string]error{}
	for _, c := range commands {
		fail[c] = errors.New("connection reset")
	}
	dev := &topology.Device{Name: "leaf"}
	err := (Platform{}).Collect(context.Background(), &fakeRunner{Scenario: "healthy", Fail: fail}, inventory.DeviceSpec{}, dev)
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("got %v", err)
	}
}

func TestCollectNoPorts(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdLLDP:          {Stdout: "not json"},
		CmdRunningConfig: {Stdout: "", ExitCode: 1, Stderr: "% Authorization denied"},
	}}
	dev := &topology.Device{Name: "leaf"}
	err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, dev)
	if err == nil || !strings.Contains(err.Error(), "no port to audit") {
		t.Fatalf("got %v", err)
	}
}

func TestCollectCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := (Platform{}).Collect(ctx, &fakeRunner{Scenario: "healthy"}, inventory.DeviceSpec{}, &topology.Device{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestPlatform(t *testing.T) {
	p := Descriptor()
	if p.Name() != "eos" || p.Role() != topology.RoleSwitch {
		t.Error("identity")
	}
	al := p.Allowlist()
	for _, c := range p.Plan(inventory.DeviceSpec{}) {
		if !al.Allows(c) {
			t.Errorf("plan sends %q, which the allowlist refuses", c)
		}
		if !strings.HasPrefix(c, "show ") {
			t.Errorf("%q is not a show command", c)
		}
	}
	for _, c := range []string{"configure", "show running-config; reload", "show interfaces | json | bash rm -rf /", "bash"} {
		if al.Allows(c) {
			t.Errorf("allowlist lets %q through", c)
		}
	}
}

// The speed is "bandwidth" in bit/s; the port that is not connected (healthy Ethernet3,
// broken Ethernet9/1) shows 0 there and has an unknown speed, as has a port not in the output.
func TestPortSpeed(t *testing.T) {
	for _, sc := range []struct{ scenario, up, down string }{{"healthy", "Ethernet31/1", "Ethernet3"}, {"broken", "Ethernet2/1", "Ethernet9/1"}} {
		ifaces, err := ParseInterfaces(fixture(t, sc.scenario, CmdInterfaces))
		if err != nil {
			t.Fatal(err)
		}
		s := &sources{ifaces: ifaces, cfgErr: errors.New("not needed")}
		want := topology.Known(100.0, topology.Evidence{Command: CmdInterfaces,
			Excerpt: sc.up + ` "bandwidth": 100000000000 (bit/s, interfaceStatus connected)`})
		if got := buildPort(sc.up, s).Speed; !cmp.Equal(got, want) {
			t.Errorf("%s %s speed = %+v, want %+v", sc.scenario, sc.up, got, want)
		}
		want = topology.Unknown[float64](topology.Evidence{Command: CmdInterfaces,
			Error: sc.down + ` reports no "bandwidth" (interfaceStatus "notconnect")`})
		if got := buildPort(sc.down, s).Speed; !cmp.Equal(got, want) {
			t.Errorf("%s %s speed = %+v, want %+v", sc.scenario, sc.down, got, want)
		}
		if got := buildPort("Ethernet40", s).Speed; got.Usable() || got.Source.Error != "Ethernet40 is not in the output" {
			t.Errorf("absent port speed = %+v", got)
		}
	}
}
