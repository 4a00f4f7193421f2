package cumulus

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

func collect(t *testing.T, r collectors.Runner, spec inventory.DeviceSpec) (*topology.Device, error) {
	t.Helper()
	if spec.Name == "" {
		spec.Name = "leaf2"
	}
	dev := &topology.Device{Name: spec.Name, Platform: "cumulus", Role: topology.RoleSwitch}
	err := Platform{}.Collect(context.Background(), r, spec, dev)
	return dev, err
}

func portNamesOf(sw *topology.SwitchFacts) []string {
	var names []string
	for _, p := range sw.Ports {
		names = append(names, p.Name)
	}
	return names
}

func allPrios(on bool) map[int]bool {
	m := map[int]bool{}
	for p := 0; p < 8; p++ {
		m[p] = on
	}
	return m
}

func perPort(port string, tmpls []string) []string {
	var out []string
	for _, t := range tmpls {
		c, err := collectors.Expand(t, map[string]string{"if": port})
		if err != nil {
			panic(err)
		}
		out = append(out, c)
	}
	return out
}

func TestCollectHealthy(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy"}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	want := asJSON(switchCommands)
	ports := []string{"swp1", "swp2", "swp51", "swp52"}
	for _, p := range ports {
		want = append(want, perPort(p, asJSON(roceCommands))...)
	}
	if d := cmp.Diff(want, portOrdered(r.Sent, len(switchCommands), ports)); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}
	sw := dev.Switch
	if sw.NOS != "Cumulus Linux 5.5.0" {
		t.Errorf("NOS = %q", sw.NOS)
	}
	if d := cmp.Diff([]string{"swp1", "swp2", "swp51", "swp52"}, portNamesOf(sw)); d != "" {
		t.Errorf("ports (eth0 is not front panel): %s", d)
	}
	wantLLDP := []topology.LLDPNeighbor{
		{LocalPort: "eth0", SystemName: "oob-mgmt-switch", PortID: "swp10"},
		{LocalPort: "swp1", SystemName: "server01", PortID: "48:b0:2d:76:ee:8e"},
		{LocalPort: "swp2", SystemName: "server02", PortID: "48:b0:2d:86:c1:f8"},
		{LocalPort: "swp51", SystemName: "spine01", PortID: "swp1"},
		{LocalPort: "swp52", SystemName: "spine02", PortID: "swp1"},
	}
	if d := cmp.Diff(wantLLDP, sw.LLDP.Value); d != "" || !sw.LLDP.Usable() {
		t.Errorf("LLDP (-want +got):\n%s", d)
	}

	status := "nv show interface swp51 qos roce status"
	ev := func(cmd, excerpt string) topology.Evidence { return topology.Evidence{Command: cmd, Excerpt: excerpt} }
	wantPort := &topology.SwitchPort{
		Name:  "swp51",
		Speed: topology.Known(1.0, ev("nv show interface swp51 link", "speed                  1G                 auto     auto")),
		MTU:   topology.Known(topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216}, ev("nv show interface swp51 link", "mtu                    9216               9216     9216")),
		Trust: topology.Known("both", ev(status, "  trust-mode        pcp,dscp                Trust Setting on the port for packet classification")),
		DSCPToTC: topology.Known(spEight(), ev(status, "DSCP->switch-priority: 0-7->0; 8-15->1; 16-23->2; 24-31->3; 32-39->4; 40-47->5; 48-55->6; 56-63->7 "+
			"(nv show qos roce map, port rows:\n    cnp   6    48    6\n    roce  3    26    3)")),
		TCToQueue: topology.Known(map[int]int{0: 0, 1: 0, 2: 0, 3: 3, 4: 0, 5: 0, 6: 6, 7: 0}, ev(status,
			"switch-priority->traffic-class: 0-2,4-5,7->0; 3->3; 6->6 (nv show qos roce map, port rows:\n"+
				"    cnp   6            6              strict priority\n    roce  3            3              dwrr-50%)")),
		PFC: topology.Known(topology.SwitchPFC{RX: []int{3}, TX: []int{3}}, ev(status,
			"  pfc-priority      3                       switch-prio on which PFC is enabled\n"+
				"  rx-enabled        yes                     PFC Rx Enabled status\n"+
				"  tx-enabled        yes                     PFC Tx Enabled status\n(mode lossless)")),
		PFCWatchdog:    topology.Known(allPrios(true), ev("nv show interface swp51 qos pfc-watchdog", "state            enabled      enabled")),
		WatchdogTimers: topology.Unsupported(topology.WatchdogTimers{}, WatchdogTimersUnread, ev("nv show interface swp51 qos pfc-watchdog", "")),
		Pause:          topology.Known(topology.Pause{}, ev("nv show interface swp51 qos link-pause", "rx  disable\ntx  disable")),
		ECN: topology.Known(map[int]bool{0: true, 1: false, 2: false, 3: true, 4: false, 5: false, 6: false, 7: false}, ev(status,
			"  congestion-mode   ecn, absolute           Congestion config mode\n"+
				"  enabled-tc        0,3                     Congestion config enabled Traffic Class")),
		Scheduler: topology.Known(map[int]string{0: "dwrr", 3: "dwrr", 6: "strict"}, ev(status,
			"traffic-class scheduler: 0,3->dwrr; 6->strict (nv show qos roce map, port rows:\n"+
				"    cnp   6            6              strict priority\n    roce  3            3              dwrr-50%)")),
		DCBX: topology.Unsupported(topology.DCBX{Mode: "static", Detail: "configured locally; RoCE is enabled, so IEEE DCBX PFC/ETS TLVs are transmitted on every port"},
			DCBXUnsupported, ev(CmdRoCE, "")),
		Buffer: topology.Known(topology.Buffer{LosslessPGs: []int{3}, Profile: "roce-reserved-ingress"}, ev(status,
			"1   roce-reserved-ingress  DYNAMIC  3        3                  -              15.16 MB  7.30 MB        7.90 MB")),
		Headroom: topology.Unsupported(topology.Headroom{}, noBufferSizes, ev(CmdRoCE, "")),
		ECNOrder: topology.Unsupported(topology.ECNOrder{}, noBufferSizes, ev(CmdRoCE, "")),
	}
	got := *sw.Port("swp51")
	counters := got.Counters
	got.Counters = topology.Fact[map[string]int64]{}
	if d := cmp.Diff(wantPort, &got); d != "" {
		t.Errorf("swp51 (-want +got):\n%s", d)
	}
	// JSON: three tables of 8 classes (4 + 5 + 4 columns, ECN marks per traffic class), exact,
	// and the link stats' four traffic counters.
	if !counters.Usable() || len(counters.Value) != 8*(3+5+4)+4 || counters.Source != ev("nv show interface swp51 counters qos -o json + nv show interface swp51 link stats -o json", "96 counters\n4 traffic counters") {
		t.Errorf("counters = %+v", counters.Source)
	}
	if v := counters.Value; v["queue3_tx_bytes"] != 403632760866 || v["queue3_ecn_marked_packets"] != 2210 || v["pfc_tx_pause_prio3"] != 1271 ||
		v["rx_bytes"] != 73418120934 || v["tx_packets"] != 7902113 {
		t.Errorf("counters not exact: %v", v)
	}
}

// asJSON is cmds with each JSON-first command in its `-o json` form (what a switch that
// answers JSON is sent).
func asJSON(cmds []string) []string {
	out := slices.Clone(cmds)
	for i, c := range out {
		if slices.Contains(jsonFirst, c) {
			out[i] = jsonCmd(c)
		}
	}
	return out
}

// RoCE disabled: the generic profiles, read verbatim from NVIDIA's examples, plus one port
// with link pause on.
func TestCollectBroken(t *testing.T) {
	r := &fakeRunner{Scenario: "broken"}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	// The broken switch answers no `-o json`: after the first refusal, text only (the
	// switch-wide commands went ahead in one batch, so LLDP's text comes after RoCE).
	want := []string{CmdSystem, jsonCmd(CmdInterfaceLLDP), CmdRoCE, CmdInterfaceLLDP}
	ports := []string{"swp1", "swp2", "swp51", "swp52"}
	for _, p := range ports {
		want = append(want, perPort(p, genericCommands)...)
	}
	if d := cmp.Diff(want, portOrdered(r.Sent, 4, ports)); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}
	p := dev.Switch.Port("swp2")
	type vals struct {
		MTU       topology.MTU
		Trust     string
		DSCP      map[int]int
		TCQ       map[int]int
		PFC       topology.SwitchPFC
		WD        map[int]bool
		Pause     topology.Pause
		ECN       map[int]bool
		Scheduler map[int]string
		Buffer    topology.Buffer
	}
	got := vals{p.MTU.Value, p.Trust.Value, p.DSCPToTC.Value, p.TCToQueue.Value, p.PFC.Value, p.PFCWatchdog.Value,
		p.Pause.Value, p.ECN.Value, p.Scheduler.Value, p.Buffer.Value}
	wantVals := vals{
		MTU:   topology.MTU{Configured: 9000, Kind: "frame", Normalized: 9000},
		Trust: "pcp", DSCP: map[int]int{}, TCQ: map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7},
		PFC: topology.SwitchPFC{RX: []int{}, TX: []int{}}, WD: allPrios(false), Pause: topology.Pause{RX: true, TX: true},
		ECN:       map[int]bool{0: true, 1: false, 2: false, 3: false, 4: false, 5: false, 6: false, 7: false},
		Scheduler: map[int]string{0: "dwrr", 1: "dwrr", 2: "dwrr", 3: "dwrr", 4: "dwrr", 5: "dwrr", 6: "dwrr", 7: "dwrr"},
		Buffer:    topology.Buffer{LosslessPGs: []int{}},
	}
	if d := cmp.Diff(wantVals, got); d != "" {
		t.Errorf("swp2 (-want +got):\n%s", d)
	}
	for name, k := range map[string]bool{"mtu": p.MTU.Usable(), "trust": p.Trust.Usable(), "dscp": p.DSCPToTC.Usable(), "tcq": p.TCToQueue.Usable(),
		"pfc": p.PFC.Usable(), "wd": p.PFCWatchdog.Usable(), "pause": p.Pause.Usable(), "ecn": p.ECN.Usable(), "sched": p.Scheduler.Usable(),
		"buffer": p.Buffer.Usable(), "counters": p.Counters.Usable()} {
		if !k {
			t.Errorf("swp2 %s unknown", name)
		}
	}
	if p.DCBX.Status != topology.FactUnsupported || p.DCBX.Reason != DCBXUnsupported {
		t.Errorf("swp2 DCBX = %+v, want unsupported because %q", p.DCBX, DCBXUnsupported)
	}
	if p.Trust.Source.Command != "nv show interface swp2 qos mapping" || !strings.Contains(p.Trust.Source.Excerpt, "trust            l2") {
		t.Errorf("trust evidence %+v", p.Trust.Source)
	}
	if d := dev.Switch.Port("swp1").Pause.Value; d != (topology.Pause{}) {
		t.Errorf("swp1 pause = %+v", d)
	}
	if s := p.Speed; !s.Usable() || s.Value != 1 {
		t.Errorf("swp2 speed = %+v, want 1 Gb/s", s)
	}
	// swp52's link is down: a blank operational speed is unknown, not 0 and not the applied "auto".
	wantDown := topology.Unknown[float64](topology.Evidence{Command: "nv show interface swp52 link",
		Excerpt: "speed                                     auto     auto",
		Error:   "nv show interface swp52 link: no operational speed (the link is down)"})
	if s := dev.Switch.Port("swp52"); !cmp.Equal(s.Speed, wantDown) || !s.MTU.Usable() {
		t.Errorf("swp52 speed = %+v (MTU known %v), want %+v", s.Speed, s.MTU.Usable(), wantDown)
	}
}

// RoCE disabled, PFC on through a profile: the port output must list the priorities, or the
// fact is unknown rather than guessed; the buffer cannot be read outside RoCE mode.
func TestCollectGenericPFCOn(t *testing.T) {
	listed := "                   operational  applied\n-----------------  -----------  -------\n" +
		"rx                 enable       enable\ntx                 enable       enable\n[switch-priority]  3            3\n"
	unlisted := "    operational  applied\n--  -----------  -------\nrx  enable\ntx  enable\n"
	r := &fakeRunner{Scenario: "broken", Override: map[string]collectors.Output{
		"nv show interface swp1 qos pfc": {Stdout: listed},
		"nv show interface swp2 qos pfc": {Stdout: unlisted},
	}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	p1 := dev.Switch.Port("swp1")
	if !p1.PFC.Usable() || !cmp.Equal(p1.PFC.Value, topology.SwitchPFC{RX: []int{3}, TX: []int{3}}) {
		t.Errorf("listed priorities: %+v", p1.PFC)
	}
	if p1.Buffer.Usable() || !strings.Contains(p1.Buffer.Source.Error, "only reported in RoCE mode") {
		t.Errorf("buffer with PFC on, RoCE off: %+v", p1.Buffer)
	}
	p2 := dev.Switch.Port("swp2").PFC
	if p2.Usable() || p2.Source.Error != "nv show interface swp2 qos pfc: PFC is enabled (rx true, tx true) but the output does not list its switch priorities" {
		t.Errorf("unlisted priorities: %+v", p2)
	}
}

// When `nv show qos roce` fails, the regime is unknown: the facts that depend on it are
// unknown with that error, the others are still read.
func TestCollectRoCEUnreadable(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdRoCE: {Stderr: "Error: Permission denied: not a member of the nvapply group\n", ExitCode: 1},
	}}
	dev, err := collect(t, r, inventory.DeviceSpec{Interfaces: []string{"swp1"}})
	if err != nil {
		t.Fatal(err)
	}
	p := dev.Switch.Port("swp1")
	want := "nv show qos roce: exit status 1: Error: Permission denied: not a member of the nvapply group"
	for name, f := range map[string]topology.Evidence{"trust": p.Trust.Source, "dscp": p.DSCPToTC.Source, "pfc": p.PFC.Source,
		"ecn": p.ECN.Source, "sched": p.Scheduler.Source, "buffer": p.Buffer.Source, "tcq": p.TCToQueue.Source} {
		if f.Error != want {
			t.Errorf("%s evidence = %+v", name, f)
		}
	}
	if p.PFC.Usable() || !p.MTU.Usable() || !p.Pause.Usable() || !p.PFCWatchdog.Usable() {
		t.Errorf("known-ness: pfc %v mtu %v pause %v wd %v", p.PFC.Usable(), p.MTU.Usable(), p.Pause.Usable(), p.PFCWatchdog.Usable())
	}
	if p.DCBX.Status != topology.FactUnsupported || !strings.Contains(p.DCBX.Value.Detail, "unknown") {
		t.Errorf("DCBX = %+v", p.DCBX)
	}
}

func TestCollectPortStatusUnrecognised(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		"nv show interface swp2 qos roce status": {Stdout: "Error: The requested item does not exist.\n"},
	}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	f := dev.Switch.Port("swp2").PFC
	if f.Usable() || f.Source.Error != "nv show interface swp2 qos roce status: no RoCE mode row in the output" ||
		f.Source.Command != "nv show interface swp2 qos roce status" {
		t.Errorf("PFC = %+v", f)
	}
	if !dev.Switch.Port("swp1").PFC.Usable() {
		t.Error("one port's failure leaked to another")
	}
}

func TestCollectInventoryInterfacesAndNames(t *testing.T) {
	closed := errors.New("ssh: session closed")
	r := &fakeRunner{Scenario: "healthy", Fail: map[string]error{jsonCmd(CmdInterfaceLLDP): closed, CmdInterfaceLLDP: closed}}
	dev, err := collect(t, r, inventory.DeviceSpec{Interfaces: []string{"swp2", "swp1", "swp1;reboot"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"swp1", "swp1;reboot", "swp2"}, portNamesOf(dev.Switch)); d != "" {
		t.Errorf("ports: %s", d)
	}
	if dev.Switch.LLDP.Usable() || dev.Switch.LLDP.Source.Error != "nv show interface lldp: ssh: session closed" {
		t.Errorf("LLDP = %+v", dev.Switch.LLDP)
	}
	bad := dev.Switch.Port("swp1;reboot")
	if bad.MTU.Usable() || !strings.Contains(bad.MTU.Source.Error, "not a safe interface") {
		t.Errorf("unsafe name: %+v", bad.MTU)
	}
	for _, c := range r.Sent {
		if strings.Contains(c, "reboot") {
			t.Errorf("sent %q", c)
		}
	}
}

func TestCollectNothingToAudit(t *testing.T) {
	closed := errors.New("ssh: session closed")
	r := &fakeRunner{Scenario: "healthy", Fail: map[string]error{jsonCmd(CmdInterfaceLLDP): closed, CmdInterfaceLLDP: closed}}
	if _, err := collect(t, r, inventory.DeviceSpec{}); err == nil || !strings.Contains(err.Error(), "no port to audit") {
		t.Errorf("err = %v", err)
	}
}

func TestAllowlist(t *testing.T) {
	a := Descriptor().Allowlist()
	for _, p := range []string{"swp1", "swp10s3"} {
		for _, c := range append(append(perPort(p, roceCommands), perPort(p, genericCommands)...), switchCommands...) {
			if !a.Allows(c) {
				t.Errorf("%q not allowed", c)
			}
		}
	}
	for _, c := range []string{"nv set qos roce", "nv config apply", "nv show interface swp1;reboot qos pfc",
		"nv show interface swp1 qos pfc | sh", "nv unset interface swp1 qos link-pause"} {
		if a.Allows(c) {
			t.Errorf("%q allowed", c)
		}
	}
	if d := cmp.Diff(Templates(), Platform{}.Plan(inventory.DeviceSpec{})); d != "" {
		t.Error(d)
	}
	if len(Templates()) != 3+11+len(jsonFirst) {
		t.Errorf("%d templates: %q", len(Templates()), Templates())
	}
	if Descriptor().Name() != "cumulus" || Descriptor().Role() != topology.RoleSwitch {
		t.Error("name or role")
	}
	if FixtureFile("nv show interface swp1 qos pfc-watchdog") != "nv_show_interface_swp1_qos_pfc-watchdog.txt" {
		t.Error("FixtureFile")
	}
}

// NVUE lists a host that stock lldpd announces by MAC with that MAC as its Remote Port and no
// description (NVIDIA's own sample: server01 48:b0:2d:76:ee:8e): the collected neighbour still
// links to the host netdev with that MAC, not to the host's first port.
func TestHostAnnouncedByMACIsLinked(t *testing.T) {
	leaf, err := collect(t, &fakeRunner{Scenario: "healthy"}, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	host := func(name string, netdevMAC ...string) *topology.Device {
		h := &topology.HostFacts{}
		for i := 0; i < len(netdevMAC); i += 2 {
			h.Ports = append(h.Ports, &topology.HostPort{Netdev: netdevMAC[i],
				Link: topology.Known(topology.Netdev{Name: netdevMAC[i], MAC: netdevMAC[i+1]}, topology.Evidence{})})
		}
		return &topology.Device{Name: name, Role: topology.RoleHost, Reachable: true, Host: h}
	}
	s := &topology.Snapshot{Devices: []*topology.Device{leaf,
		host("server01", "eth0", "48:b0:2d:76:ee:8d", "eth1", "48:b0:2d:76:ee:8e"),
		host("server02", "eth1", "48:b0:2d:86:c1:f8"),
	}}
	var got []string
	for _, l := range topology.ResolveLinks(s) {
		got = append(got, l.A.String()+"="+l.B.String())
	}
	if d := cmp.Diff([]string{"leaf2:swp1=server01:eth1", "leaf2:swp2=server02:eth1"}, got); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
}

// NVUE truncated the Remote Port column: the switch still has its ports, a neighbour whose
// port was cut short has no port ID (never a prefix of a MAC), and a port whose own name was
// cut short is reported with every fact unknown and why, without a command sent for it.
func TestCollectTruncatedLLDPTable(t *testing.T) {
	truncated := verbatim(t, "nv_show_interface_lldp.truncated.txt")
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{CmdInterfaceLLDP: {Stdout: truncated}, jsonCmd(CmdInterfaceLLDP): noJSON}}
	dev, err := collect(t, r, inventory.DeviceSpec{Interfaces: []string{"swp1", "swp51"}})
	if err != nil {
		t.Fatal(err)
	}
	lldp := dev.Switch.LLDP
	if !lldp.Usable() || len(lldp.Value) != 10 {
		t.Fatalf("LLDP = %+v", lldp)
	}
	want := []topology.LLDPNeighbor{
		{LocalPort: "swp1", SystemName: "server01"},
		{LocalPort: "swp51", SystemName: "spine01", PortID: "swp1"},
	}
	if d := cmp.Diff(want, []topology.LLDPNeighbor{lldp.Value[1], lldp.Value[6]}); d != "" {
		t.Errorf("neighbours (-want +got):\n%s", d)
	}
	if !strings.Contains(lldp.Source.Excerpt, "48:b0:2d:76:ee…") {
		t.Errorf("excerpt lost the truncated cell: %q", lldp.Source.Excerpt)
	}

	cut := "Interface  Type  Remote Host  Remote Port\n" +
		"--------…  ----  -----------  -----------\n" +
		"swp1s1…    swp   spine01      swp1\n" +
		"swp2       swp   server02     eth1\n"
	r = &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{CmdInterfaceLLDP: {Stdout: cut}, jsonCmd(CmdInterfaceLLDP): noJSON}}
	dev, err = collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"swp1s1…", "swp2"}, portNamesOf(dev.Switch)); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	p := dev.Switch.Port("swp1s1…")
	if p.MTU.Usable() || p.PFC.Usable() || !strings.Contains(p.MTU.Source.Error, "truncated") || p.MTU.Source.Command != CmdInterfaceLLDP {
		t.Errorf("truncated port MTU = %+v", p.MTU)
	}
	for _, c := range r.Sent {
		if strings.Contains(c, "…") {
			t.Errorf("sent %q", c)
		}
	}
	if d := cmp.Diff([]topology.LLDPNeighbor{{LocalPort: "swp2", SystemName: "server02", PortID: "eth1"}}, dev.Switch.LLDP.Value); d != "" {
		t.Errorf("a neighbour on a truncated port is not placed (-want +got):\n%s", d)
	}
}

// noJSON is how a switch that does not take `-o json` answers it (NVUE's wording is not
// verified; the collector only needs the failure).
var noJSON = collectors.Output{ExitCode: 2, Stderr: "Error: Invalid option: -o json"}
