package nxos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct{ scenario, want string }{
		{"healthy", "Cisco NX-OS 10.2(4) (Nexus9000 C9336C-FX2 Chassis)"},
		{"broken", "Cisco NX-OS 7.0(3)I7(9) (Nexus9000 C93180YC-EX chassis)"}, // kickstart_ver_str
	} {
		v, err := ParseVersion(fixture(t, tc.scenario, CmdVersion))
		if err != nil {
			t.Fatal(err)
		}
		if v.String() != tc.want {
			t.Errorf("%s: %q, want %q", tc.scenario, v.String(), tc.want)
		}
	}
}

func TestParseInterface(t *testing.T) {
	got, err := ParseInterface(fixture(t, "healthy", CmdInterface))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Interface{
		"Ethernet1/1": {Name: "Ethernet1/1", MTU: 9216, InFlowCtrl: "off", OutFlowCtrl: "off", HasPauseCounter: true,
			State: "up", EthSpeed: "100 Gb/s", BWKbit: 100000000,
			Traffic: map[string]int64{"rx_bytes": 73418120934, "tx_bytes": 70233419027, "rx_packets": 8101442, "tx_packets": 7902113}},
		"Ethernet1/2": {Name: "Ethernet1/2", MTU: 9216, InFlowCtrl: "off", OutFlowCtrl: "off", HasPauseCounter: true,
			State: "up", EthSpeed: "100 Gb/s", BWKbit: 100000000},
		"Ethernet1/3": {Name: "Ethernet1/3", MTU: 1500, InFlowCtrl: "off", OutFlowCtrl: "off", HasPauseCounter: true,
			State: "down", EthSpeed: "auto-speed", BWKbit: 100000000},
		"Ethernet1/49": {Name: "Ethernet1/49", MTU: 9216, InFlowCtrl: "off", OutFlowCtrl: "off", HasPauseCounter: true,
			State: "up", EthSpeed: "100 Gb/s", BWKbit: 100000000},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("healthy (-want +got):\n%s", d)
	}
	// 7.0(3): counters are JSON numbers, eth_mtu still a string.
	got, err = ParseInterface(fixture(t, "broken", CmdInterface))
	if err != nil {
		t.Fatal(err)
	}
	if e := got["Ethernet1/6"]; e.InFlowCtrl != "on" || e.OutFlowCtrl != "on" || e.InPause != 9312 || e.OutPause != 77 {
		t.Errorf("broken Ethernet1/6: %+v", e)
	}
	if got["Ethernet1/1"].MTU != 1500 {
		t.Errorf("broken Ethernet1/1: %+v", got["Ethernet1/1"])
	}
}

// The speed is eth_speed; the port that is down (healthy Ethernet1/3) prints "auto-speed"
// and has none, although its eth_bw still holds the port type's default.
func TestInterfaceSpeed(t *testing.T) {
	healthy, err := ParseInterface(fixture(t, "healthy", CmdInterface))
	if err != nil {
		t.Fatal(err)
	}
	broken, err := ParseInterface(fixture(t, "broken", CmdInterface)) // 7.0(3): numeric eth_bw
	if err != nil {
		t.Fatal(err)
	}
	if got, ex, err := healthy["Ethernet1/1"].Speed(); got != 100 || ex != `Ethernet1/1 "eth_speed": "100 Gb/s"` || err != nil {
		t.Errorf("healthy Ethernet1/1: %v %q %v", got, ex, err)
	}
	if got, _, err := broken["Ethernet1/9"].Speed(); got != 100 || err != nil {
		t.Errorf("broken Ethernet1/9: %v %v", got, err)
	}
	if got, _, err := healthy["Ethernet1/3"].Speed(); got != 0 || err == nil ||
		err.Error() != `Ethernet1/3 shows no speed: "eth_speed": "auto-speed" (state "down")` {
		t.Errorf("port down: %v %v, want no speed", got, err)
	}
	// The harvest N9K-C9336C-FX2 row (NetApp/harvest testdata), and variants of its fields.
	row := func(extra string) Interface {
		t.Helper()
		got, err := ParseInterface(`{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","state":"up",` +
			`"eth_mtu":"9216","eth_bw":"40000000",` + extra + `"eth_in_flowctrl":"off","eth_out_flowctrl":"off"}]}}`)
		if err != nil {
			t.Fatal(err)
		}
		return got["Ethernet1/1"]
	}
	for extra, want := range map[string]float64{`"eth_speed":"40 Gb/s",`: 40, `"eth_speed":"1000 Mb/s",`: 1, `"eth_speed":"400 Gb/s",`: 400, "": 40} {
		if got, ex, err := row(extra).Speed(); got != want || err != nil {
			t.Errorf("%s: %v %q %v, want %v", extra, got, ex, err, want)
		}
	}
	if _, ex, _ := row("").Speed(); ex != `Ethernet1/1 no "eth_speed"; "eth_bw": 40000000 (Kbit/s), state up` {
		t.Errorf("eth_bw evidence %q", ex)
	}
	down := row("")
	down.State = "down"
	if got, _, err := down.Speed(); got != 0 || err == nil {
		t.Errorf("no eth_speed, down: %v %v; want no speed", got, err)
	}
	if got, _, err := row(`"eth_speed":"auto",`).Speed(); got != 0 || err == nil {
		t.Errorf("eth_speed auto: %v %v; want no speed", got, err)
	}
}

func TestParseInterfaceShapes(t *testing.T) {
	one := `{"TABLE_interface":{"ROW_interface":{"interface":"Ethernet1/1","eth_mtu":9216,"eth_in_flowctrl":"off","eth_out_flowctrl":"off","eth_outbytes":40}}}`
	env := `{"output":{"body":` + one + `,"code":"200","msg":"Success"}}`
	for name, in := range map[string]string{"single row object, numeric mtu": one, "NX-API envelope": env} {
		got, err := ParseInterface(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got["Ethernet1/1"].MTU != 9216 || got["Ethernet1/1"].Traffic["tx_bytes"] != 40 {
			t.Errorf("%s: %+v", name, got)
		}
	}
}

func TestParseLLDP(t *testing.T) {
	got, err := ParseLLDP(fixture(t, "healthy", CmdLLDP))
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.LLDPNeighbor{
		{LocalPort: "Ethernet1/1", SystemName: "gpu05", PortID: "ens1f0np0", PortDescr: "ens1f0np0", ChassisID: "0c42.a1b2.d5f0", MgmtAddress: "10.0.0.15"},
		{LocalPort: "Ethernet1/2", SystemName: "gpu06", PortID: "ens1f0np0", PortDescr: "ens1f0np0", ChassisID: "0c42.a1b2.d6f0", MgmtAddress: "10.0.0.16"},
		{LocalPort: "Ethernet1/49", SystemName: "spine1", PortID: "Ethernet1/3", PortDescr: "leaf3 uplink", ChassisID: "5087.89a1.d8d6", MgmtAddress: "192.0.2.1"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("healthy (-want +got):\n%s", d)
	}
	// One neighbour: ROW_nbor_detail is an object; "null"/"not advertised" are absent TLVs.
	got, err = ParseLLDP(fixture(t, "broken", CmdLLDP))
	if err != nil {
		t.Fatal(err)
	}
	want = []topology.LLDPNeighbor{{LocalPort: "Ethernet1/49", SystemName: "spine2", PortID: "Ethernet1/9", ChassisID: "5087.89a1.e001"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("broken (-want +got):\n%s", d)
	}
	for _, empty := range []string{"", "\n", `{"neigh_hdr":"neigh_hdr","neigh_count":"0"}`, `{"neigh_count":0}`} {
		got, err := ParseLLDP(empty)
		if err != nil || len(got) != 0 {
			t.Errorf("no neighbour %q: %v %v", empty, got, err)
		}
	}
}

func TestParseQoSConfigHealthy(t *testing.T) {
	c, err := ParseQoSConfig(fixture(t, "healthy", CmdQoSConfig))
	if err != nil {
		t.Fatal(err)
	}
	if c.SystemNetworkQoS != "ROCE-NQ" || c.SystemQueuingOutput != "ROCE-OUT" || c.SystemQoSInput != "" {
		t.Errorf("system qos: %+v", c)
	}
	if c.Watchdog == nil || !*c.Watchdog {
		t.Error("global watch-dog-interval on")
	}
	up := c.Interfaces["Ethernet1/49"]
	if up.PFCMode != "on" || up.QoSInput != "ROCE-IN" {
		t.Errorf("`mode on send-tlv` is mode on: %+v", up)
	}
	cl, err := c.Classify(c.Interfaces["Ethernet1/1"])
	if err != nil {
		t.Fatal(err)
	}
	if cl.Trust != "dscp" || cl.DSCPToQG[26] != 3 || cl.DSCPToQG[48] != 6 || cl.DSCPToQG[0] != 0 || len(cl.DSCPToQG) != 64 {
		t.Errorf("classification: %+v", cl)
	}
	nd, err := c.Lossless()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(NoDrop{Policy: "ROCE-NQ", PFCCoS: []int{3}, QoSGroups: []int{3}, CoSGroup: map[int]int{3: 3}}, nd, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Lines" }, cmp.Ignore())); d != "" {
		t.Errorf("lossless (-want +got):\n%s", d)
	}
	q, ok, err := c.Queues(nil)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if q.Scheduler[6] != "strict" || q.Scheduler[7] != "strict" || q.Scheduler[3] != "dwrr" || !q.ECN[3] || q.ECN[0] {
		t.Errorf("queues: %+v", q)
	}
}

func TestParseQoSConfigBroken(t *testing.T) {
	c, err := ParseQoSConfig(fixture(t, "broken", CmdQoSConfig))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := c.Classify(c.Interfaces["Ethernet1/3"])
	if err != nil {
		t.Fatal(err)
	}
	if cl.DSCPToQG[24] != 4 || cl.DSCPToQG[26] != 4 {
		t.Errorf("match dscp 24,26 -> qos-group 4: %v", cl.DSCPToQG)
	}
	if cl, _ := c.Classify(c.Interfaces["Ethernet1/2"]); cl.Trust != "pcp" || cl.DSCPToQG[26] != 0 {
		t.Errorf("cos classifier: %+v", cl)
	}
	if PFCMode(c.Interfaces["Ethernet1/9"]) != "auto" || PFCMode(c.Interfaces["Ethernet1/4"]) != "off" || PFCMode(nil) != "auto" {
		t.Error("PFC mode defaults to auto")
	}
	if w := c.Interfaces["Ethernet1/5"].Watchdog; w == nil || *w {
		t.Error("interface watch-dog-interval off")
	}
	q, _, _ := c.Queues(c.Interfaces["Ethernet1/7"])
	if q.Policy != "NO-ECN-OUT" || q.ECN[3] || q.Scheduler[6] != "strict" {
		t.Errorf("interface queuing policy overrides system qos: %+v", q)
	}
	q, _, _ = c.Queues(c.Interfaces["Ethernet1/8"])
	if q.Scheduler[6] != "dwrr" || !q.ECN[3] {
		t.Errorf("CNP-DWRR-OUT: %+v", q)
	}
}

func TestParserErrorsNameTheCommand(t *testing.T) {
	qos := func(s string) error { _, err := ParseQoSConfig(s); return err }
	hdr := "!Command: show running-config ipqos\nversion 10.2(4)\n"
	for _, tc := range []struct {
		name, cmd, out, want string
		parse                func(string) error
	}{
		{"version", CmdVersion, `{"host_name":"leaf"}`, "nxos_ver_str", func(s string) error { _, err := ParseVersion(s); return err }},
		{"interface not json", CmdInterface, "Ethernet1/1 is up", "not JSON", func(s string) error { _, err := ParseInterface(s); return err }},
		{"interface no table", CmdInterface, `{"TABLE_vlan":{}}`, "TABLE_interface", func(s string) error { _, err := ParseInterface(s); return err }},
		{"interface bad mtu", CmdInterface, `{"TABLE_interface":{"ROW_interface":{"interface":"Ethernet1/1","eth_mtu":"jumbo"}}}`, "ROW_interface", func(s string) error { _, err := ParseInterface(s); return err }},
		{"interface no mtu", CmdInterface, `{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","eth_in_flowctrl":"off","eth_out_flowctrl":"off"}]}}`, "eth_mtu", func(s string) error { _, err := ParseInterface(s); return err }},
		{"interface flowctrl", CmdInterface, `{"TABLE_interface":{"ROW_interface":[{"interface":"Ethernet1/1","eth_mtu":"9216","eth_in_flowctrl":"maybe","eth_out_flowctrl":"off"}]}}`, `"maybe"`, func(s string) error { _, err := ParseInterface(s); return err }},
		{"interface refused", CmdInterface, "                      ^\n% Invalid command at '^' marker.\n", "refused", func(s string) error { _, err := ParseInterface(s); return err }},
		{"lldp no table", CmdLLDP, `{"neigh_count":"2"}`, "TABLE_nbor_detail", func(s string) error { _, err := ParseLLDP(s); return err }},
		{"lldp row shape", CmdLLDP, `{"TABLE_nbor_detail":{"ROW_nbor_detail":"x"}}`, "ROW_nbor_detail", func(s string) error { _, err := ParseLLDP(s); return err }},
		{"qos not config", CmdQoSConfig, "Ethernet1/1 is up\n", "not a running-config", qos},
		{"qos bad dscp", CmdQoSConfig, hdr + "class-map type qos match-all X\n  match dscp 77\n", "outside 0..63", qos},
		{"qos bad group", CmdQoSConfig, hdr + "policy-map type qos P\n  class X\n    set qos-group eight\n", "qos-group", qos},
		{"qos bad mode", CmdQoSConfig, hdr + "interface Ethernet1/1\n  priority-flow-control mode sometimes\n", "PFC mode", qos},
		{"qos bad watchdog", CmdQoSConfig, hdr + "priority-flow-control watch-dog-interval maybe\n", "on or off", qos},
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

func TestResolutionErrors(t *testing.T) {
	hdr := "!Command: show running-config ipqos\nversion 10.2(4)\n"
	c, err := ParseQoSConfig(hdr + `policy-map type qos P
  class MISSING
    set qos-group 3
policy-map type queuing Q
  class type queuing weird-class
    priority level 1
system qos
  service-policy type network-qos NQ-NOT-DEFINED
  service-policy type queuing output Q
interface Ethernet1/1
  service-policy type qos input P
`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Classify(c.Interfaces["Ethernet1/1"]); err == nil || !strings.Contains(err.Error(), "MISSING") {
		t.Errorf("undefined class map: %v", err)
	}
	if _, err := c.Lossless(); err == nil || !strings.Contains(err.Error(), "NQ-NOT-DEFINED") {
		t.Errorf("undefined network-qos policy: %v", err)
	}
	if _, _, err := c.Queues(nil); err == nil || !strings.Contains(err.Error(), "weird-class") {
		t.Errorf("unknown queuing class: %v", err)
	}
}

func TestParseValues(t *testing.T) {
	for in, want := range map[string][]int{"26": {26}, "24,26": {24, 26}, "24-27": {24, 25, 26, 27}, "af31 cs6": {26, 48}, "ef": {46}} {
		got, err := parseValues(in, 63, dscpNames)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "27-24", "64", "x", "1-"} {
		if _, err := parseValues(bad, 63, dscpNames); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLongName(t *testing.T) {
	for in, want := range map[string]string{"Eth1/9": "Ethernet1/9", "Ethernet1/9": "Ethernet1/9", "mgmt0": "mgmt0"} {
		if got := LongName(in); got != want {
			t.Errorf("LongName(%q) = %q", in, got)
		}
	}
}
