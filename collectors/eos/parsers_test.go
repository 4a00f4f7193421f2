package eos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct{ scenario, want string }{
		{"healthy", "Arista EOS 4.28.3M (DCS-7050CX3-32S)"},
		{"broken", "Arista EOS 4.30.1F (DCS-7280CR3-32P4)"},
	} {
		v, err := ParseVersion(fixture(t, tc.scenario, CmdVersion))
		if err != nil {
			t.Fatal(err)
		}
		if v.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.scenario, v.String(), tc.want)
		}
	}
}

func TestParseInterfaces(t *testing.T) {
	got, err := ParseInterfaces(fixture(t, "healthy", CmdInterfaces))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Interface{
		"Ethernet1": {Name: "Ethernet1", MTU: 9214, ForwardingModel: "bridged", Bandwidth: 100e9, Status: "connected", HasPauseCounter: true,
			Traffic: map[string]int64{"rx_bytes": 73418120934, "tx_bytes": 70233419027, "rx_packets": 8101442, "tx_packets": 7902113}},
		"Ethernet2":    {Name: "Ethernet2", MTU: 9214, ForwardingModel: "bridged", Bandwidth: 100e9, Status: "connected", HasPauseCounter: true},
		"Ethernet3":    {Name: "Ethernet3", MTU: 1500, ForwardingModel: "bridged", Bandwidth: 0, Status: "notconnect", HasPauseCounter: true},
		"Ethernet31/1": {Name: "Ethernet31/1", MTU: 9214, ForwardingModel: "routed", Bandwidth: 100e9, Status: "connected", HasPauseCounter: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("healthy (-want +got):\n%s", d)
	}
	got, err = ParseInterfaces(fixture(t, "broken", CmdInterfaces))
	if err != nil {
		t.Fatal(err)
	}
	if e5 := got["Ethernet5/1"]; e5.RxPause != 18231 || e5.TxPause != 4410 {
		t.Errorf("broken Ethernet5/1 pause counters: %+v", e5)
	}
	if got["Ethernet1/1"].MTU != 1500 {
		t.Errorf("broken Ethernet1/1 MTU: %+v", got["Ethernet1/1"])
	}
}

func TestParseFlowcontrol(t *testing.T) {
	got, err := ParseFlowcontrol(fixture(t, "broken", CmdFlowcontrol))
	if err != nil {
		t.Fatal(err)
	}
	for port, want := range map[string][2]bool{ // {receiving, sending}
		"Ethernet1/1": {false, false},
		"Ethernet5/1": {true, true},
		"Ethernet9/1": {false, true}, // send on, link down: configured on counts
		"Management1": {true, false}, // desired, negotiated on receive only
	} {
		fc, ok := got[port]
		if !ok {
			t.Fatalf("%s missing", port)
		}
		if fc.Receiving() != want[0] || fc.Sending() != want[1] {
			t.Errorf("%s: receiving %v sending %v, want %v", port, fc.Receiving(), fc.Sending(), want)
		}
	}
}

func TestParseLLDP(t *testing.T) {
	got, err := ParseLLDP(fixture(t, "healthy", CmdLLDP))
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.LLDPNeighbor{
		{LocalPort: "Ethernet1", SystemName: "gpu01", PortID: "0c42.a1b2.c3d0", PortDescr: "ens1f0np0", ChassisID: "0c42.a1b2.c3d0"},
		{LocalPort: "Ethernet2", SystemName: "gpu02", PortID: "0c42.a1b2.c4e0", PortDescr: "ens1f0np0", ChassisID: "0c42.a1b2.c4e0"},
		{LocalPort: "Ethernet31/1", SystemName: "spine1", PortID: "Ethernet1/1", PortDescr: "leaf1 uplink", ChassisID: "2cc2.6081.eaf9"},
		{LocalPort: "Management1", SystemName: "oob-sw1", PortID: "Ethernet1/12", ChassisID: "5087.89a1.d8d6"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParsePFCCounters(t *testing.T) {
	got, err := ParsePFCCounters(fixture(t, "healthy", CmdPFCCounters))
	if err != nil {
		t.Fatal(err)
	}
	if got["Ethernet1"] != (PFCCounters{RxFrames: 1204}) || got["Ethernet31/1"] != (PFCCounters{RxFrames: 52, TxFrames: 977}) {
		t.Errorf("got %+v", got)
	}
	_, err = ParsePFCCounters(fixture(t, "broken", CmdPFCCounters))
	if err == nil || !strings.Contains(err.Error(), CmdPFCCounters) || !strings.Contains(err.Error(), "Unavailable command") {
		t.Errorf("refused command: got error %v", err)
	}
}

func TestParseRunningConfigHealthy(t *testing.T) {
	rc, err := ParseRunningConfig(fixture(t, "healthy", CmdRunningConfig))
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.DSCPToTC) != 0 {
		t.Errorf("`qos map traffic-class 3 to dscp 26` is a rewrite map, not DSCP->TC: got %v", rc.DSCPToTC)
	}
	e1, err := rc.EffectiveQoS(rc.Interfaces["Ethernet1"])
	if err != nil {
		t.Fatal(err)
	}
	if e1.Trust != "dscp" || e1.Profile != "QOS_ROCE_DCQCN" || !cmp.Equal(e1.PFCPriorities(false), []int{3}) {
		t.Errorf("Ethernet1 via profile: %+v", e1)
	}
	if !e1.ECNQueues()[3] || e1.ECNQueues()[6] || e1.Schedulers()[6] != "strict" {
		t.Errorf("Ethernet1 queues: ecn %v sched %v", e1.ECNQueues(), e1.Schedulers())
	}
	up := rc.Interfaces["Ethernet31/1"]
	if !up.Routed || up.MTU != 9214 {
		t.Errorf("Ethernet31/1: %+v", up)
	}
	if rc.Interfaces["Ethernet3"].HasLines {
		t.Error("Ethernet3 has an empty block")
	}
	if _, ok := rc.Interfaces["Management1"]; ok {
		t.Error("Management1 is not a front-panel port")
	}
}

func TestParseRunningConfigBroken(t *testing.T) {
	rc, err := ParseRunningConfig(fixture(t, "broken", CmdRunningConfig))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{24, 25, 26, 27} {
		if rc.DSCPToTC[d] != 1 {
			t.Errorf("DSCP %d -> %d, want 1", d, rc.DSCPToTC[d])
		}
	}
	eff := func(port string) Effective {
		e, err := rc.EffectiveQoS(rc.Interfaces[port])
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if e := eff("Ethernet2/1"); e.Trust != "cos" {
		t.Errorf("interface trust must override the profile: %q", e.Trust)
	}
	if e := eff("Ethernet3/1"); !cmp.Equal(e.PFCPriorities(false), []int{3, 4}) {
		t.Errorf("Ethernet3/1 PFC: %v", e.PFCPriorities(false))
	}
	if e := eff("Ethernet4/1"); e.Watchdog == nil || *e.Watchdog {
		t.Errorf("Ethernet4/1 watchdog override: %v", e.Watchdog)
	}
	if e := eff("Ethernet6/1"); !cmp.Equal(e.PFCPriorities(false), []int{3}) || e.ECNQueues()[3] {
		t.Errorf("Ethernet6/1 (old `mode on` syntax, no ECN): %+v", e)
	}
	if s := eff("Ethernet7/1").Schedulers(); s[6] != "wrr" || s[7] != "wrr" {
		t.Errorf("no priority on queue 7 makes 0..7 round-robin: %v", s)
	}
	if rc.Interfaces["Ethernet8/1"].DCBX != "ieee" {
		t.Errorf("Ethernet8/1 DCBX: %q", rc.Interfaces["Ethernet8/1"].DCBX)
	}
	if ic := rc.Interfaces["Ethernet5/1"]; ic.FlowSend != "on" || ic.FlowReceive != "on" {
		t.Errorf("Ethernet5/1 flowcontrol: %+v", ic)
	}
}

func TestParserErrorsNameTheCommand(t *testing.T) {
	for _, tc := range []struct {
		name, cmd, out, want string
		parse                func(string) error
	}{
		{"version not json", CmdVersion, "Arista DCS-7050", "not JSON", func(s string) error { _, err := ParseVersion(s); return err }},
		{"version no key", CmdVersion, `{"modelName": "x"}`, `no "version"`, func(s string) error { _, err := ParseVersion(s); return err }},
		{"interfaces wrong shape", CmdInterfaces, `{"interfaceStatuses": {}}`, `no "interfaces"`, func(s string) error { _, err := ParseInterfaces(s); return err }},
		{"interfaces no mtu", CmdInterfaces, `{"interfaces": {"Ethernet1": {"forwardingModel": "bridged"}}}`, `no "mtu"`, func(s string) error { _, err := ParseInterfaces(s); return err }},
		{"interfaces mtu string", CmdInterfaces, `{"interfaces": {"Ethernet1": {"mtu": "9214"}}}`, "not JSON", func(s string) error { _, err := ParseInterfaces(s); return err }},
		{"flowcontrol no header", CmdFlowcontrol, "Port Status\nEt1 up\n", "header", func(s string) error { _, err := ParseFlowcontrol(s); return err }},
		{"flowcontrol bad state", CmdFlowcontrol, strings.Replace(fixture(t, "healthy", CmdFlowcontrol), "Et2         off", "Et2         maybe", 1), `"maybe"`, func(s string) error { _, err := ParseFlowcontrol(s); return err }},
		{"flowcontrol short row", CmdFlowcontrol, fixture(t, "healthy", CmdFlowcontrol) + "Et9  off\n", "row", func(s string) error { _, err := ParseFlowcontrol(s); return err }},
		{"lldp wrong shape", CmdLLDP, `{"lldpNeighbors": {"Ethernet1": {}}}`, "lldpNeighborInfo", func(s string) error { _, err := ParseLLDP(s); return err }},
		{"config not a config", CmdRunningConfig, "hostname leaf1\n", "no interface block", func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{"config bad map", CmdRunningConfig, "qos map dscp 26 to traffic-class nine\ninterface Ethernet1\n", "traffic-class", func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{"config bad priority", CmdRunningConfig, "interface Ethernet1\n   priority-flow-control priority 9 no-drop\n", "priority 0..7", func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{"config bad indent", CmdRunningConfig, "   mtu 9214\ninterface Ethernet1\n", "indented", func(s string) error { _, err := ParseRunningConfig(s); return err }},
		{"config cli error", CmdRunningConfig, "% Invalid input (privileged mode required)\n", "refused", func(s string) error { _, err := ParseRunningConfig(s); return err }},
	} {
		err := tc.parse(tc.out)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.cmd+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q should start with %q and mention %q", tc.name, err, tc.cmd, tc.want)
		}
	}
}

func TestNormalizeMTU(t *testing.T) {
	for ip, want := range map[int]int{9214: 9216, 9000: 9000, 1500: 1500, 68: 68} {
		if got := NormalizeMTU(ip); got.Normalized != want || got.Kind != "ip" || got.Configured != ip {
			t.Errorf("NormalizeMTU(%d) = %+v, want normalized %d", ip, got, want)
		}
	}
	if IPMTUFor(9216) != 9214 || IPMTUFor(9000) != 9000 {
		t.Error("IPMTUFor is not the inverse of NormalizeMTU")
	}
}

func TestLongName(t *testing.T) {
	for in, want := range map[string]string{"Et1": "Ethernet1", "Et3/1/1": "Ethernet3/1/1", "Ma1": "Management1", "Ethernet1": "Ethernet1", "Etc": "Etc"} {
		if got := LongName(in); got != want {
			t.Errorf("LongName(%q) = %q, want %q", in, got, want)
		}
	}
}
