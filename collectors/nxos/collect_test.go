package nxos

import (
	"context"
	"errors"
	"fmt"
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
	dev := &topology.Device{Name: "leaf", Platform: "nxos", Role: topology.RoleSwitch}
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

func allQueues[T any](v T) map[int]T {
	m := map[int]T{}
	for q := 0; q < 8; q++ {
		m[q] = v
	}
	return m
}

func roceDSCP() map[int]int {
	m := allQueues(0)
	for d := 8; d < 64; d++ {
		m[d] = 0
	}
	m[26], m[48] = 3, 6
	return m
}

func healthyPort(name string) *topology.SwitchPort {
	ecn := allQueues(false)
	ecn[3] = true
	sched := allQueues("dwrr")
	sched[6], sched[7] = "strict", "strict"
	tcq := map[int]int{}
	for q := 0; q < 8; q++ {
		tcq[q] = q
	}
	return &topology.SwitchPort{
		Name:           name,
		Speed:          known(100.0, CmdInterface),
		MTU:            known(topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216}, CmdInterface),
		Trust:          known("dscp", CmdQoSConfig),
		DSCPToTC:       known(roceDSCP(), CmdQoSConfig),
		TCToQueue:      known(tcq, CmdQoSConfig),
		PFC:            known(topology.SwitchPFC{RX: []int{3}, TX: []int{3}, Mode: "on"}, CmdQoSConfig),
		PFCWatchdog:    known(allQueues(true), CmdQoSConfig),
		WatchdogTimers: topology.Unsupported(topology.WatchdogTimers{}, WatchdogTimersUnread, topology.Evidence{Command: CmdQoSConfig}),
		Pause:          known(topology.Pause{}, CmdInterface),
		ECN:            known(ecn, CmdQoSConfig),
		Scheduler:      known(sched, CmdQoSConfig),
		DCBX:           known(topology.DCBX{Mode: "static", Detail: "priority-flow-control mode on"}, CmdQoSConfig),
		Buffer:         known(topology.Buffer{LosslessPGs: []int{3}, Profile: "ROCE-NQ"}, CmdQoSConfig),
		Headroom:       topology.Unsupported(topology.Headroom{}, noBufferSizes, topology.Evidence{Command: CmdQoSConfig}),
		ECNOrder:       topology.Unsupported(topology.ECNOrder{}, noBufferSizes, topology.Evidence{Command: CmdQoSConfig}),
		Counters:       known(healthyCounters(name), CmdInterface+" + "+CmdQueuingJSON),
	}
}

// healthyCounters are a healthy port's pause counters (and, on Ethernet1/1, its traffic
// counters), and the unicast egress counters of its
// eight qos-groups: the fixture's non-zero values, every other one 0 (Q Depth is a gauge and
// CONTROL/SPAN are not data queues, so neither is a counter).
func healthyCounters(name string) map[string]int64 {
	c := map[string]int64{"rx_pause": 0, "tx_pause": 0}
	for g := 0; g < 8; g++ {
		for _, n := range []string{"tx_packets", "tx_bytes", "drops", "drop_bytes", "watchdog_drops", "ecn_marked_packets"} {
			c[fmt.Sprintf("queue%d_%s", g, n)] = 0
		}
	}
	nonzero := map[string]map[string]int64{
		"Ethernet1/1": {"queue0_tx_packets": 48211, "queue0_tx_bytes": 5302110, "queue3_tx_packets": 202328436,
			"queue3_tx_bytes": 203884632744, "queue3_ecn_marked_packets": 1843, "queue6_tx_packets": 1659, "queue6_tx_bytes": 106176,
			"rx_bytes": 73418120934, "tx_bytes": 70233419027, "rx_packets": 8101442, "tx_packets": 7902113},
		"Ethernet1/2": {"queue0_tx_packets": 47903, "queue0_tx_bytes": 5268330, "queue3_tx_packets": 198224017,
			"queue3_tx_bytes": 199748128122, "queue6_tx_packets": 1702, "queue6_tx_bytes": 108928},
		"Ethernet1/49": {"queue0_tx_packets": 96114, "queue0_tx_bytes": 10570440, "queue3_tx_packets": 400552453,
			"queue3_tx_bytes": 403632760866, "queue6_tx_packets": 3361, "queue6_tx_bytes": 215104},
	}
	for k, v := range nonzero[name] {
		c[k] = v
	}
	return c
}

func TestCollectHealthy(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy"}
	sw := collect(t, r)
	if d := cmp.Diff(commands, r.Sent); d != "" {
		t.Errorf("commands sent (-plan +sent):\n%s", d)
	}
	if sw.NOS != "Cisco NX-OS 10.2(4) (Nexus9000 C9336C-FX2 Chassis)" {
		t.Errorf("NOS %q", sw.NOS)
	}
	want := []*topology.SwitchPort{healthyPort("Ethernet1/1"), healthyPort("Ethernet1/2"), healthyPort("Ethernet1/49")}
	if d := cmp.Diff(want, sw.Ports, ignoreExcerpt); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	if !sw.LLDP.Usable() || len(sw.LLDP.Value) != 3 || sw.LLDP.Value[2].LocalPort != "Ethernet1/49" {
		t.Errorf("LLDP: %+v", sw.LLDP)
	}
	p := sw.Port("Ethernet1/1")
	for _, c := range []struct{ name, excerpt, want string }{
		{"pfc", p.PFC.Source.Excerpt, "pause pfc-cos 3"},
		{"pfc mode", p.PFC.Source.Excerpt, "priority-flow-control mode on"},
		{"dscp", p.DSCPToTC.Source.Excerpt, "set qos-group 3"},
		{"watchdog", p.PFCWatchdog.Source.Excerpt, "watch-dog-interval on (global)"},
		{"ecn", p.ECN.Source.Excerpt, "random-detect"},
		{"mtu", p.MTU.Source.Excerpt, `"eth_mtu": 9216`},
	} {
		if !strings.Contains(c.excerpt, c.want) {
			t.Errorf("%s evidence %q lacks %q", c.name, c.excerpt, c.want)
		}
	}
}

func TestCollectBroken(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "broken"})
	wantPorts := []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4", "Ethernet1/5", "Ethernet1/6", "Ethernet1/7", "Ethernet1/8", "Ethernet1/9", "Ethernet1/49"}
	if d := cmp.Diff(wantPorts, portNamesOf(sw)); d != "" {
		t.Fatalf("ports (-want +got):\n%s", d)
	}
	zero := roceDSCP()
	zero[26], zero[48] = 0, 0
	wrong := roceDSCP()
	wrong[24], wrong[26] = 4, 4
	ecnOff := allQueues(false)
	cnpDWRR := allQueues("dwrr")
	type row struct {
		port string
		fact func(*topology.SwitchPort) any
		want any
	}
	for _, r := range []row{
		{"Ethernet1/1", func(p *topology.SwitchPort) any { return p.MTU.Value }, topology.MTU{Configured: 1500, Kind: "frame", Normalized: 1500}},
		{"Ethernet1/2", func(p *topology.SwitchPort) any { return p.Trust.Value }, "pcp"},
		{"Ethernet1/2", func(p *topology.SwitchPort) any { return p.DSCPToTC.Value }, zero},
		{"Ethernet1/3", func(p *topology.SwitchPort) any { return p.DSCPToTC.Value }, wrong},
		{"Ethernet1/4", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{}, TX: []int{}, Mode: "off"}},
		{"Ethernet1/4", func(p *topology.SwitchPort) any { return p.DCBX.Value.Mode }, "static"},
		{"Ethernet1/5", func(p *topology.SwitchPort) any { return p.PFCWatchdog.Value }, allQueues(false)},
		{"Ethernet1/6", func(p *topology.SwitchPort) any { return p.Pause.Value }, topology.Pause{RX: true, TX: true}},
		{"Ethernet1/6", func(p *topology.SwitchPort) any {
			return pick(p.Counters.Value, "rx_pause", "tx_pause", "queue3_drops", "queue3_drop_bytes")
		},
			map[string]int64{"rx_pause": 9312, "tx_pause": 77, "queue3_drops": 977, "queue3_drop_bytes": 1008264}},
		{"Ethernet1/4", func(p *topology.SwitchPort) any {
			return pick(p.Counters.Value, "queue3_drops", "queue3_tx_packets", "queue0_drops")
		},
			map[string]int64{"queue3_drops": 18204, "queue3_tx_packets": 90331877, "queue0_drops": 0}},
		{"Ethernet1/4", func(p *topology.SwitchPort) any { return p.Counters.Source.Command }, CmdInterface + " + " + CmdQueuing},
		{"Ethernet1/7", func(p *topology.SwitchPort) any { return p.ECN.Value }, ecnOff},
		{"Ethernet1/8", func(p *topology.SwitchPort) any { return p.Scheduler.Value }, cnpDWRR},
		{"Ethernet1/9", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{3}, TX: []int{3}, Mode: "auto"}},
		{"Ethernet1/9", func(p *topology.SwitchPort) any { return p.DCBX.Value.Mode }, "dcbx"},
		{"Ethernet1/49", func(p *topology.SwitchPort) any { return p.PFC.Value }, topology.SwitchPFC{RX: []int{3}, TX: []int{3}, Mode: "on"}},
	} {
		if d := cmp.Diff(r.want, r.fact(sw.Port(r.port))); d != "" {
			t.Errorf("%s (-want +got):\n%s", r.port, d)
		}
	}
	if d := sw.Port("Ethernet1/9").DCBX; d.Status != topology.FactInferred || !strings.HasPrefix(d.Reason, "NX-OS default priority-flow-control mode auto") {
		t.Errorf("mode auto by default must say so: %+v", d)
	}
	if sw.Port("Ethernet1/5").PFCWatchdog.Source.Excerpt == "" || !strings.Contains(sw.Port("Ethernet1/5").PFCWatchdog.Source.Excerpt, "watch-dog-interval off") {
		t.Errorf("watchdog evidence: %q", sw.Port("Ethernet1/5").PFCWatchdog.Source.Excerpt)
	}
}

func TestCollectNoQueuingPolicy(t *testing.T) {
	cfg := strings.Replace(fixture(t, "healthy", CmdQoSConfig), "  service-policy type queuing output ROCE-OUT\n", "", 1)
	sw := collect(t, &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{CmdQoSConfig: {Stdout: cfg}}})
	p := sw.Port("Ethernet1/1")
	if p.Scheduler.Usable() || !strings.Contains(p.Scheduler.Source.Error, "no service-policy type queuing output") {
		t.Errorf("scheduler of an unconfigured default policy must be unknown: %+v", p.Scheduler)
	}
	if !p.ECN.Usable() || p.ECN.Value[3] {
		t.Errorf("default queuing policy marks no ECN: %+v", p.ECN)
	}
}

func TestCollectFailuresBecomeUnknown(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy",
		Fail:     map[string]error{CmdInterface: errors.New("EOF")},
		Override: map[string]collectors.Output{CmdQoSConfig: {Stdout: "% Permission denied for the role\n"}}}
	sw := collect(t, r)
	if d := cmp.Diff([]string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/49"}, portNamesOf(sw)); d != "" {
		t.Fatalf("ports from LLDP (-want +got):\n%s", d)
	}
	p := sw.Port("Ethernet1/2")
	if p.MTU.Usable() || p.Pause.Usable() || p.PFC.Usable() || p.Trust.Usable() {
		t.Error("facts without a source must be unknown")
	}
	if p.MTU.Source.Command != CmdInterface || !strings.Contains(p.MTU.Source.Error, "EOF") {
		t.Errorf("MTU evidence %+v", p.MTU.Source)
	}
	if p.PFC.Source.Command != CmdQoSConfig || !strings.Contains(p.PFC.Source.Error, "Permission denied") {
		t.Errorf("PFC evidence %+v", p.PFC.Source)
	}
}

func TestCollectNoPorts(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdLLDP:      {Stdout: "{", ExitCode: 0},
		CmdQoSConfig: {ExitCode: 16, Stderr: "Permission denied"},
	}}
	err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{}, &topology.Device{})
	if err == nil || !strings.Contains(err.Error(), "no port to audit") {
		t.Fatalf("got %v", err)
	}
}

func TestCollectNothingReadable(t *testing.T) {
	fail := map[string]error{}
	for _, c := range commands {
		fail[c] = errors.New("EOF")
	}
	err := (Platform{}).Collect(context.Background(), &fakeRunner{Scenario: "healthy", Fail: fail}, inventory.DeviceSpec{}, &topology.Device{})
	if err == nil || !strings.Contains(err.Error(), "no command succeeded") {
		t.Fatalf("got %v", err)
	}
}

func TestPlatform(t *testing.T) {
	p := Descriptor()
	if p.Name() != "nxos" || p.Role() != topology.RoleSwitch {
		t.Error("identity")
	}
	al := p.Allowlist()
	for _, c := range p.Plan(inventory.DeviceSpec{}) {
		if !al.Allows(c) || !strings.HasPrefix(c, "show ") {
			t.Errorf("%q", c)
		}
	}
	for _, c := range []string{"configure terminal", "show running-config", "show interface | json ; reload", "run bash"} {
		if al.Allows(c) {
			t.Errorf("allowlist lets %q through", c)
		}
	}
}

// A port that is down (healthy Ethernet1/3, "auto-speed") has an unknown speed that says why;
// its MTU still reads.
func TestPortDownHasUnknownSpeed(t *testing.T) {
	ifaces, err := ParseInterface(fixture(t, "healthy", CmdInterface))
	if err != nil {
		t.Fatal(err)
	}
	p := buildPort("Ethernet1/3", &sources{ifaces: ifaces, cfgErr: errors.New("not needed")})
	want := topology.Unknown[float64](topology.Evidence{Command: CmdInterface,
		Error: `Ethernet1/3 shows no speed: "eth_speed": "auto-speed" (state "down")`})
	if !cmp.Equal(p.Speed, want) || !p.MTU.Usable() {
		t.Errorf("speed %+v (MTU known %v), want %+v", p.Speed, p.MTU.Usable(), want)
	}
}

// pick is the named counters of m (a missing one reads -1, so its absence shows).
func pick(m map[string]int64, names ...string) map[string]int64 {
	out := map[string]int64{}
	for _, n := range names {
		v, ok := m[n]
		if !ok {
			v = -1
		}
		out[n] = v
	}
	return out
}
