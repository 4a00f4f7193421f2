package sonic

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

func collect(t *testing.T, r *fakeRunner, spec inventory.DeviceSpec) (*topology.Device, error) {
	t.Helper()
	if spec.Name == "" {
		spec.Name = "leaf1"
	}
	dev := &topology.Device{Name: spec.Name, Platform: "sonic", Role: topology.RoleSwitch}
	err := Platform{}.Collect(context.Background(), r, spec, dev)
	return dev, err
}

func cfgEv(excerpt string) topology.Evidence {
	return topology.Evidence{Command: CmdRunningConfig, Excerpt: excerpt}
}

func portNamesOf(sw *topology.SwitchFacts) []string {
	var names []string
	for _, p := range sw.Ports {
		names = append(names, p.Name)
	}
	return names
}

func TestCollectHealthy(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy"}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Platform{}.Plan(inventory.DeviceSpec{}), r.Sent); d != "" {
		t.Errorf("sent commands differ from Plan (-plan +sent):\n%s", d)
	}
	sw := dev.Switch
	if sw.NOS != "SONiC.HEAD.32-21ea29a (HwSKU Mellanox-SN2700)" {
		t.Errorf("NOS = %q", sw.NOS)
	}
	if d := cmp.Diff([]string{"Ethernet0", "Ethernet4", "Ethernet8"}, portNamesOf(sw)); d != "" {
		t.Errorf("ports: %s", d)
	}
	if !sw.LLDP.Usable() || len(sw.LLDP.Value) != 4 || sw.LLDP.Value[2] != (topology.LLDPNeighbor{
		LocalPort: "Ethernet8", SystemName: "spine1", PortID: "Ethernet1", PortDescr: "leaf1:Ethernet8"}) {
		t.Errorf("LLDP = %+v", sw.LLDP)
	}

	dscp := map[int]int{}
	for d := 0; d < 64; d++ {
		dscp[d] = 0
	}
	dscp[26], dscp[48] = 3, 6
	aliases := map[string][]string{}
	for _, p := range sw.Ports {
		aliases[p.Name] = p.Aliases
	}
	if d := cmp.Diff(map[string][]string{"Ethernet0": {"etp1"}, "Ethernet4": {"etp2"}, "Ethernet8": {"etp3"}}, aliases); d != "" {
		t.Errorf("aliases are PORT|<port>.alias (-want +got):\n%s", d)
	}
	want := &topology.SwitchPort{
		Name:     "Ethernet0",
		Aliases:  []string{"etp1"},
		Speed:    topology.Known(40.0, cfgEv(`PORT|Ethernet0: speed="40000" (Mb/s)`)),
		MTU:      topology.Known(topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216}, cfgEv(`PORT|Ethernet0: mtu="9216"`)),
		Trust:    topology.Known("dscp", cfgEv(`PORT_QOS_MAP|Ethernet0: dscp_to_tc_map="AZURE"`)),
		DSCPToTC: topology.Known(dscp, cfgEv("DSCP_TO_TC_MAP|AZURE (bound at PORT_QOS_MAP|Ethernet0): 0-25,27-47,49-63->0; 26->3; 48->6")),
		DSCPMap:  "AZURE",
		TCToQueue: topology.Known(identity(),
			cfgEv("TC_TO_QUEUE_MAP|AZURE (bound at PORT_QOS_MAP|Ethernet0): 0->0; 1->1; 2->2; 3->3; 4->4; 5->5; 6->6; 7->7")),
		PFC: topology.Known(topology.SwitchPFC{RX: []int{3}, TX: []int{3}},
			cfgEv(`PORT_QOS_MAP|Ethernet0: pfc_enable="3"; PORT|Ethernet0: pfc_asym="off"`)),
		PFCWatchdog: topology.Known(boolMap(3), cfgEv(`PFC_WD|Ethernet0: action="drop" detection_time="600" restoration_time="600"; `+
			`PORT_QOS_MAP|Ethernet0: pfc_enable="3" pfcwd_sw_enable="3"; FLEX_COUNTER_TABLE|PFCWD: FLEX_COUNTER_STATUS="enable"`)),
		WatchdogTimers: topology.Known(topology.WatchdogTimers{DetectionMs: 600, RestorationMs: 600, Action: "drop"},
			cfgEv(`PFC_WD|Ethernet0: action="drop" detection_time="600" restoration_time="600"`)),
		Pause: topology.Unsupported(topology.Pause{}, PauseUnsupported, cfgEv("")),
		ECN:   topology.Known(boolMap(3), cfgEv(`QUEUE|Ethernet0 wred_profile: queue 3 -> WRED_PROFILE|AZURE_LOSSLESS ecn="ecn_all"`)),
		Scheduler: topology.Known(map[int]string{0: "dwrr", 1: "dwrr", 2: "dwrr", 3: "dwrr", 4: "dwrr", 5: "dwrr", 6: "strict"},
			cfgEv(`QUEUE|Ethernet0 scheduler: queues 0-2,4-5 -> SCHEDULER|scheduler.0 type="DWRR" weight="14"; `+
				`queue 3 -> SCHEDULER|scheduler.1 type="DWRR" weight="15"; queue 6 -> SCHEDULER|scheduler.2 type="STRICT"`)),
		DCBX: topology.Unsupported(topology.DCBX{Mode: "static", Detail: "no DCBX in community SONiC"}, DCBXUnsupported, cfgEv("")),
		Buffer: topology.Known(topology.Buffer{LosslessPGs: []int{3}, Profile: "pg_lossless_100000_40m_profile",
			PGs: map[int]string{0: "ingress_lossy_profile: lossy, no xoff", 3: `pg_lossless_100000_40m_profile: lossless, xoff="177632"`}},
			cfgEv(`BUFFER_PG|Ethernet0|0: profile="ingress_lossy_profile" (ingress_lossy_profile: lossy, no xoff); `+
				`BUFFER_PG|Ethernet0|3: profile="pg_lossless_100000_40m_profile" (pg_lossless_100000_40m_profile: lossless, xoff="177632")`)),
		// A Broadcom SKU: SONiC publishes no headroom formula for it.
		Headroom: topology.Unsupported(topology.Headroom{}, "SONiC publishes a headroom formula for Mellanox Spectrum platforms only "+
			"(buffer_headroom_mellanox.lua); other ASICs size headroom from their own vendor tables", cfgEv(`DEVICE_METADATA|localhost: hwsku="DellEMC-Z9264f-C64"`)),
		ECNOrder: topology.Known(topology.ECNOrder{
			Queues: map[int]topology.ECNThreshold{3: {Profile: "AZURE_LOSSLESS", KMin: 1048576, KMax: 2097152}},
			PGs: map[int]topology.PFCThreshold{3: {Profile: "pg_lossless_100000_40m_profile", DynamicTh: -3, HasDynamicTh: true,
				Pool: "ingress_lossless_pool", PoolSize: 12766208}},
		}, cfgEv(`QUEUE|Ethernet0|3 -> WRED_PROFILE|AZURE_LOSSLESS: green_min_threshold="1048576" green_max_threshold="2097152"`+"\n"+
			`BUFFER_POOL|ingress_lossless_pool: size="12766208" mode="dynamic"`+"\n"+
			`BUFFER_PROFILE|pg_lossless_100000_40m_profile: size="1248" xoff="177632" dynamic_th="-3" pool="ingress_lossless_pool" (PG 3)`)),
		Counters: topology.Known(map[string]int64{
			"pfc_rx_pause_prio0": 1200, "pfc_rx_pause_prio1": 201, "pfc_rx_pause_prio2": 202, "pfc_rx_pause_prio3": 203,
			"pfc_rx_pause_prio4": 204, "pfc_rx_pause_prio5": 205, "pfc_rx_pause_prio6": 206, "pfc_rx_pause_prio7": 207,
			"pfc_tx_pause_prio0": 1210, "pfc_tx_pause_prio1": 211, "pfc_tx_pause_prio2": 212, "pfc_tx_pause_prio3": 213,
			"pfc_tx_pause_prio4": 214, "pfc_tx_pause_prio5": 215, "pfc_tx_pause_prio6": 216, "pfc_tx_pause_prio7": 217,
			"queue0_tx_packets": 0, "queue0_tx_bytes": 0, "queue0_drops": 0, "queue0_drop_bytes": 0,
			"queue1_tx_packets": 60, "queue1_tx_bytes": 43, "queue1_drops": 39, "queue1_drop_bytes": 1,
			"queue2_tx_packets": 82, "queue2_tx_bytes": 7, "queue2_drops": 39, "queue2_drop_bytes": 21,
			"queue3_tx_packets": 52, "queue3_tx_bytes": 70, "queue3_drops": 19, "queue3_drop_bytes": 76,
			"rx_packets": 1204118, "tx_packets": 987322,
		}, topology.Evidence{Command: "show pfc counters; show queue counters; show interfaces counters",
			Excerpt: "16 PFC counters; 16 queue counters; 2 interface counters"}),
	}
	if d := cmp.Diff(want, sw.Port("Ethernet0")); d != "" {
		t.Errorf("Ethernet0 (-want +got):\n%s", d)
	}
}

// values strips evidence, to compare what a port reports.
func values(p *topology.SwitchPort) map[string]any {
	return map[string]any{
		"mtu": p.MTU.Value, "trust": p.Trust.Value, "dscp26": p.DSCPToTC.Value[26], "dscp48": p.DSCPToTC.Value[48],
		"pfc": p.PFC.Value, "wd": p.PFCWatchdog.Value, "ecn": p.ECN.Value, "sched": p.Scheduler.Value,
		"buffer": p.Buffer.Value, "pause": p.Pause.Value, "dcbx": p.DCBX.Value.Mode,
	}
}

// The stock config: MTU 9100, DSCP 26 in lossy TC 1, PFC on 3 and 4 (asymmetric on
// Ethernet8), no watchdog, CNP queue DWRR. Only Ethernet0 has counter rows.
func TestCollectBroken(t *testing.T) {
	r := &fakeRunner{Scenario: "broken"}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"mtu": topology.MTU{Configured: 9100, Kind: "frame", Normalized: 9100}, "trust": "dscp", "dscp26": 1, "dscp48": 6,
		"pfc":   topology.SwitchPFC{RX: []int{0, 1, 2, 3, 4, 5, 6, 7}, TX: []int{3, 4}},
		"wd":    boolMap(),
		"ecn":   boolMap(3, 4),
		"sched": map[int]string{0: "dwrr", 3: "dwrr", 4: "dwrr", 6: "dwrr"},
		"buffer": topology.Buffer{LosslessPGs: []int{3, 4}, Profile: "pg_lossless_100000_40m_profile", PGs: map[int]string{
			0: "ingress_lossy_profile: lossy, no xoff", 3: `pg_lossless_100000_40m_profile: lossless, xoff="177632"`,
			4: `pg_lossless_100000_40m_profile: lossless, xoff="177632"`}},
		"pause": topology.Pause{}, "dcbx": "static",
	}
	p := dev.Switch.Port("Ethernet8")
	if d := cmp.Diff(want, values(p)); d != "" {
		t.Errorf("Ethernet8 (-want +got):\n%s", d)
	}
	for _, f := range []bool{p.MTU.Usable(), p.Trust.Usable(), p.DSCPToTC.Usable(), p.PFC.Usable(), p.PFCWatchdog.Usable(),
		p.ECN.Usable(), p.Scheduler.Usable(), p.Buffer.Usable()} {
		if !f {
			t.Fatalf("a fact of Ethernet8 is unknown: %+v", p)
		}
	}
	if !strings.Contains(p.PFCWatchdog.Source.Excerpt, "PFC_WD|Ethernet8: (no such key, watchdog not started)") {
		t.Errorf("watchdog excerpt %q", p.PFCWatchdog.Source.Excerpt)
	}
	if c := dev.Switch.Port("Ethernet0").Counters; !c.Usable() || c.Value["pfc_rx_pause_prio3"] != 1974230000000 {
		t.Errorf("Ethernet0 counters %+v", c)
	}
	c := dev.Switch.Port("Ethernet4").Counters
	if c.Usable() || c.Source.Error != "show pfc counters: no rows for Ethernet4; show queue counters: no rows for Ethernet4; show interfaces counters: no rows for Ethernet4" {
		t.Errorf("Ethernet4 counters should be unknown with every command named: %+v", c)
	}
}

// When CONFIG_DB cannot be read, the LLDP ports are still reported, every configuration fact
// unknown with the command and its stderr; the unsupported markers stay.
func TestCollectConfigUnreadable(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdRunningConfig: {Stderr: "Error: Permission denied\n", ExitCode: 1},
	}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"Ethernet0", "Ethernet4", "Ethernet8"}, portNamesOf(dev.Switch)); d != "" {
		t.Errorf("ports from LLDP: %s", d)
	}
	want := topology.Evidence{Command: CmdRunningConfig, Error: "show runningconfiguration all: exit status 1: Error: Permission denied"}
	p := dev.Switch.Port("Ethernet4")
	for name, f := range map[string]topology.Fact[any]{
		"speed": anyFact(p.Speed), "mtu": anyFact(p.MTU), "trust": anyFact(p.Trust), "dscp": anyFact(p.DSCPToTC), "tcq": anyFact(p.TCToQueue),
		"pfc": anyFact(p.PFC), "wd": anyFact(p.PFCWatchdog), "ecn": anyFact(p.ECN), "sched": anyFact(p.Scheduler), "buffer": anyFact(p.Buffer),
	} {
		if f.Usable() || f.Source != want {
			t.Errorf("%s = %+v, want unknown with %+v", name, f, want)
		}
	}
	if p.Pause.Status != topology.FactUnsupported || p.Pause.Reason != PauseUnsupported {
		t.Errorf("pause = %+v, want unsupported because %q", p.Pause, PauseUnsupported)
	}
}

// A PORT entry without a speed field (edgeDB's Ethernet4) gives an Unknown speed that says
// so, not 0 Gb/s; the entry next to it still reads.
func TestCollectPortWithoutSpeed(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{CmdRunningConfig: {Stdout: edgeDB}}}
	dev, err := collect(t, r, inventory.DeviceSpec{Interfaces: []string{"Ethernet0", "Ethernet4"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dev.Switch.Port("Ethernet0").Speed, topology.Known(100.0, cfgEv(`PORT|Ethernet0: speed="100000" (Mb/s)`)); !cmp.Equal(got, want) {
		t.Errorf("Ethernet0 speed = %+v, want %+v", got, want)
	}
	want := topology.Unknown[float64](topology.Evidence{Command: CmdRunningConfig,
		Error: "show runningconfiguration all: PORT|Ethernet4 has no speed field"})
	if got := dev.Switch.Port("Ethernet4").Speed; !cmp.Equal(got, want) {
		t.Errorf("Ethernet4 speed = %+v, want %+v", got, want)
	}
}

func anyFact[T any](f topology.Fact[T]) topology.Fact[any] {
	return topology.Fact[any]{Value: f.Value, Status: f.Status, Reason: f.Reason, Source: f.Source}
}

func TestCollectUnrecognisedConfig(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{
		CmdRunningConfig: {Stdout: "Usage: show [OPTIONS] COMMAND [ARGS]...\n"},
	}}
	dev, err := collect(t, r, inventory.DeviceSpec{})
	if err != nil {
		t.Fatal(err)
	}
	f := dev.Switch.Port("Ethernet0").PFC
	if f.Usable() || !strings.HasPrefix(f.Source.Error, "show runningconfiguration all: output is not a JSON object") {
		t.Errorf("PFC = %+v", f)
	}
}

func TestCollectNothingReadable(t *testing.T) {
	boom := errors.New("ssh: connection reset")
	r := &fakeRunner{Scenario: "healthy", Fail: map[string]error{
		CmdVersion: boom, CmdRunningConfig: boom, CmdLLDP: boom, CmdPFCCounters: boom, CmdQueueCounters: boom}}
	_, err := collect(t, r, inventory.DeviceSpec{})
	if err == nil || !strings.Contains(err.Error(), "no port to audit") || !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("err = %v", err)
	}
}

func TestCollectInventoryInterfaces(t *testing.T) {
	r := &fakeRunner{Scenario: "healthy"}
	dev, err := collect(t, r, inventory.DeviceSpec{Interfaces: []string{"Ethernet8", "Ethernet120", "Ethernet8"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"Ethernet8", "Ethernet120"}, portNamesOf(dev.Switch)); d != "" {
		t.Errorf("ports: %s", d)
	}
	mtu := dev.Switch.Port("Ethernet120").MTU
	if mtu.Usable() || !strings.Contains(mtu.Source.Error, "Ethernet120 is not in the CONFIG_DB PORT table") {
		t.Errorf("unknown port MTU = %+v", mtu)
	}
	if _, err := collect(t, &fakeRunner{Scenario: "healthy"}, inventory.DeviceSpec{Interfaces: []string{"Ethernet0;reboot"}}); err == nil {
		t.Error("unsafe interface name accepted")
	}
}

// LLDP ports that CONFIG_DB does not list are reported (facts unknown); management ports are
// not.
func TestPortNamesAddsLLDPOnlyFrontPanelPorts(t *testing.T) {
	db := mustDB(t, verbatim(t, "config_db_3_0_3.json"))
	ns, err := ParseLLDPTable(verbatim(t, "show_lldp_table.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := portNames(db, ns, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"Ethernet0", "Ethernet112", "Ethernet116"}, got); d != "" {
		t.Error(d)
	}
	db.Tables["PORT"]["Ethernet-BP0"] = map[string]string{"role": "Int"}
	got, _ = portNames(db, nil, nil)
	if d := cmp.Diff([]string{"Ethernet0"}, got); d != "" {
		t.Errorf("internal port kept: %s", d)
	}
}

func TestAllowlistIsExactlyThePlan(t *testing.T) {
	a := Descriptor().Allowlist()
	plan := Platform{}.Plan(inventory.DeviceSpec{})
	if d := cmp.Diff(commands, plan, cmpopts.EquateEmpty()); d != "" {
		t.Error(d)
	}
	for _, c := range plan {
		if !a.Allows(c) {
			t.Errorf("plan command %q not allowed", c)
		}
	}
	for _, c := range []string{"config save -y", "show runningconfiguration all; reboot", "show lldp table | sh", "sudo config reload -y"} {
		if a.Allows(c) {
			t.Errorf("%q allowed", c)
		}
	}
	if Descriptor().Name() != "sonic" || Descriptor().Role() != topology.RoleSwitch {
		t.Error("name or role")
	}
}

func TestFixtureFile(t *testing.T) {
	if got := FixtureFile(CmdRunningConfig); got != "show_runningconfiguration_all.txt" {
		t.Errorf("FixtureFile = %q", got)
	}
}
