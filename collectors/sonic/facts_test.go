package sonic

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/topology"
)

// portValues are the fact values of one port, without evidence, for comparisons.
type portValues struct {
	MTU       topology.MTU
	Trust     string
	DSCPToTC  map[int]int
	TCToQueue map[int]int
	PFC       topology.SwitchPFC
	Watchdog  map[int]bool
	ECN       map[int]bool
	Scheduler map[int]string
}

func derive(t *testing.T, db *ConfigDB, port string) portValues {
	t.Helper()
	var v portValues
	var err error
	check := func(what string) {
		if err != nil {
			t.Fatalf("%s(%s): %v", what, port, err)
		}
	}
	v.MTU, _, err = PortMTU(db, port)
	check("PortMTU")
	v.Trust, _, err = PortTrust(db, port)
	check("PortTrust")
	v.DSCPToTC, _, err = PortDSCPToTC(db, port)
	check("PortDSCPToTC")
	v.TCToQueue, _, err = PortTCToQueue(db, port)
	check("PortTCToQueue")
	v.PFC, _, err = PortPFC(db, port)
	check("PortPFC")
	v.Watchdog, _, err = PortPFCWatchdog(db, port)
	check("PortPFCWatchdog")
	v.ECN, _, err = PortECN(db, port)
	check("PortECN")
	if _, ok := db.Tables["SCHEDULER"]; ok {
		v.Scheduler, _, err = PortScheduler(db, port)
		check("PortScheduler")
	}
	return v
}

func identity() map[int]int {
	return map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}
}

func boolMap(on ...int) map[int]bool {
	m := map[int]bool{0: false, 1: false, 2: false, 3: false, 4: false, 5: false, 6: false, 7: false}
	for _, q := range on {
		m[q] = true
	}
	return m
}

// stockSchedulers is the SCHEDULER table of the stock sonic-buildimage qos_config.j2, which
// the config_db subset refers to but leaves out.
const stockSchedulers = `{"scheduler.0": {"type": "DWRR", "weight": "14"}, "scheduler.1": {"type": "DWRR", "weight": "15"}}`

// The stock DellEMC config (sonic-utilities db_migrator 3_0_3 test data): DSCP 26 in lossy TC 1, PFC on 3 and 4, no
// watchdog, every queue DWRR.
func TestStockConfigFacts(t *testing.T) {
	want := portValues{
		MTU:       topology.MTU{Configured: 9100, Kind: "frame", Normalized: 9100},
		Trust:     "dscp",
		DSCPToTC:  map[int]int{3: 3, 4: 4, 8: 0, 26: 1, 46: 5, 48: 6},
		TCToQueue: identity(),
		PFC:       topology.SwitchPFC{RX: []int{3, 4}, TX: []int{3, 4}},
		Watchdog:  boolMap(),
		ECN:       boolMap(3, 4),
		Scheduler: map[int]string{0: "dwrr", 3: "dwrr", 4: "dwrr", 6: "dwrr"},
	}
	for _, file := range []string{"config_db_3_0_3.json", "config_db_3_0_1_refs.json"} {
		t.Run(file, func(t *testing.T) {
			out := verbatim(t, file)
			// The subset names schedulers it does not define: an error, not a guess.
			if _, _, err := PortScheduler(mustDB(t, out), "Ethernet0"); err == nil || !strings.Contains(err.Error(), "SCHEDULER|scheduler.0") {
				t.Errorf("dangling scheduler: err = %v", err)
			}
			withSched := strings.Replace(out, `"WRED_PROFILE": {`, `"SCHEDULER": `+stockSchedulers+`, "WRED_PROFILE": {`, 1)
			got := derive(t, mustDB(t, withSched), "Ethernet0")
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("facts (-want +got):\n%s", d)
			}
		})
	}
}

// The reference sample is a subset: BUFFER_PG|Ethernet0|0 names ingress_lossy_profile, which
// the subset leaves out. That dangling reference makes PG 0 unreadable (named, never a guess)
// and leaves the lossless groups 3-4 read.
func TestBufferDanglingProfileIsThatGroupsAlone(t *testing.T) {
	for _, file := range []string{"config_db_3_0_3.json", "config_db_3_0_1_refs.json"} {
		b, _, err := PortBuffer(mustDB(t, verbatim(t, file)), "Ethernet0")
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !cmp.Equal(b.Unreadable, []int{0}) || !strings.Contains(b.PGs[0], "BUFFER_PROFILE|ingress_lossy_profile") {
			t.Errorf("%s: unreadable %v, PG 0 %q: want PG 0 with the missing profile named", file, b.Unreadable, b.PGs[0])
		}
		if !cmp.Equal(b.LosslessPGs, []int{3, 4}) || !strings.Contains(b.PGs[3], "lossless, xoff=") {
			t.Errorf("%s: lossless %v, PG 3 %q", file, b.LosslessPGs, b.PGs[3])
		}
	}
}

func TestHealthyConfigFacts(t *testing.T) {
	db := mustDB(t, scenario(t, "healthy", CmdRunningConfig))
	dscp := map[int]int{}
	for d := 0; d < 64; d++ {
		dscp[d] = 0
	}
	dscp[26], dscp[48] = 3, 6
	want := portValues{
		MTU:       topology.MTU{Configured: 9216, Kind: "frame", Normalized: 9216},
		Trust:     "dscp",
		DSCPToTC:  dscp,
		TCToQueue: identity(),
		PFC:       topology.SwitchPFC{RX: []int{3}, TX: []int{3}},
		Watchdog:  boolMap(3),
		ECN:       boolMap(3),
		Scheduler: map[int]string{0: "dwrr", 1: "dwrr", 2: "dwrr", 3: "dwrr", 4: "dwrr", 5: "dwrr", 6: "strict"},
	}
	if d := cmp.Diff(want, derive(t, db, "Ethernet4")); d != "" {
		t.Errorf("facts (-want +got):\n%s", d)
	}
	b, excerpt, err := PortBuffer(db, "Ethernet4")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(topology.Buffer{LosslessPGs: []int{3}, Profile: "pg_lossless_100000_40m_profile", PGs: map[int]string{
		0: "ingress_lossy_profile: lossy, no xoff", 3: `pg_lossless_100000_40m_profile: lossless, xoff="177632"`}}, b); d != "" {
		t.Error(d)
	}
	if !strings.Contains(excerpt, `BUFFER_PG|Ethernet4|3: profile="pg_lossless_100000_40m_profile" (pg_lossless_100000_40m_profile: lossless, xoff="177632")`) {
		t.Errorf("excerpt %q", excerpt)
	}
}

// edgeDB is a small constructed CONFIG_DB for the rules the reference samples do not reach.
const edgeDB = `{
  "PORT": {
    "Ethernet0": {"speed": "100000"},
    "Ethernet4": {"mtu": "9216", "pfc_asym": "on"},
    "Ethernet8": {"mtu": "9216"},
    "Ethernet12": {"mtu": "jumbo", "pfc_asym": "maybe"},
    "Ethernet16": {"mtu": "9216"}
  },
  "PORT_QOS_MAP": {
    "global": {"dscp_to_tc_map": "GLOBAL"},
    "Ethernet0": {"pfc_enable": "3,4", "pfcwd_sw_enable": "3"},
    "Ethernet4": {"dscp_to_tc_map": "MISSING", "dot1p_to_tc_map": "DOT1P", "pfc_enable": "3"},
    "Ethernet8": {"dscp_to_tc_map": "[DSCP_TO_TC_MAP|BAD]", "tc_to_queue_map": "TCQ", "pfc_enable": "3"}
  },
  "DSCP_TO_TC_MAP": {"GLOBAL": {"26": "3"}, "BAD": {"26": "three"}},
  "TC_TO_QUEUE_MAP": {"TCQ": {"3": "3", "6": "7"}},
  "PFC_WD": {"Ethernet0": {"action": "drop"}, "Ethernet4": {"action": "drop"}},
  "QUEUE": {
    "Ethernet0,Ethernet4|3-4": {"scheduler": "NOTYPE", "wred_profile": "YELLOW"},
    "Ethernet0|6": {"scheduler": "[SCHEDULER|STRICT]"},
    "Ethernet8|3": {"scheduler": "GONE"},
    "Ethernet8|4": {"wred_profile": "GONE"},
    "Ethernet12|x": {"scheduler": "STRICT"}
  },
  "SCHEDULER": {"NOTYPE": {"weight": "5"}, "STRICT": {"type": "STRICT"}},
  "WRED_PROFILE": {"YELLOW": {"ecn": "ecn_yellow_red"}},
  "BUFFER_PG": {
    "Ethernet0|3-4": {"profile": "NULL"},
    "Ethernet4|3": {"profile": ""},
    "Ethernet8|0": {"profile": "lossy"}
  },
  "BUFFER_PROFILE": {"lossy": {"size": "0"}},
  "FLEX_COUNTER_TABLE": {"PFCWD": {"FLEX_COUNTER_STATUS": "enable"}}
}`

func TestEdgeRules(t *testing.T) {
	db := mustDB(t, edgeDB)

	m, ex, err := PortMTU(db, "Ethernet0")
	if err != nil || m.Configured != DefaultMTU || !strings.Contains(ex, "default 9100") {
		t.Errorf("no mtu field: %v %q %v, want the portmgrd default said so", m, ex, err)
	}
	if _, _, err := PortMTU(db, "Ethernet12"); err == nil {
		t.Error("mtu \"jumbo\" accepted")
	}

	if tr, ex, _ := PortTrust(db, "Ethernet0"); tr != "dscp" || !strings.Contains(ex, "PORT_QOS_MAP|global") {
		t.Errorf("global DSCP map: trust %q, excerpt %q", tr, ex)
	}
	if tr, _, _ := PortTrust(db, "Ethernet4"); tr != "both" {
		t.Errorf("dscp and dot1p maps: trust %q, want both", tr)
	}
	if m, _, err := PortDSCPToTC(db, "Ethernet0"); err != nil || !cmp.Equal(m, map[int]int{26: 3}) {
		t.Errorf("global DSCP map = %v, %v", m, err)
	}
	if _, _, err := PortDSCPToTC(db, "Ethernet4"); err == nil || !strings.Contains(err.Error(), "DSCP_TO_TC_MAP|MISSING") {
		t.Errorf("missing map: %v", err)
	}
	if _, _, err := PortDSCPToTC(db, "Ethernet8"); err == nil || !strings.Contains(err.Error(), `"three"`) {
		t.Errorf("non-numeric map entry: %v", err)
	}
	if m, _, _ := PortTCToQueue(db, "Ethernet8"); !cmp.Equal(m, map[int]int{3: 3, 6: 7}) {
		t.Errorf("TC_TO_QUEUE_MAP = %v", m)
	}

	if p, _, _ := PortPFC(db, "Ethernet4"); !cmp.Equal(p, topology.SwitchPFC{RX: []int{0, 1, 2, 3, 4, 5, 6, 7}, TX: []int{3}}) {
		t.Errorf("asymmetric PFC = %+v", p)
	}
	if _, _, err := PortPFC(db, "Ethernet12"); err == nil || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("pfc_asym \"maybe\": %v", err)
	}
	if p, _, err := PortPFC(db, "Ethernet16"); err != nil || len(p.RX)+len(p.TX) != 0 {
		t.Errorf("no PORT_QOS_MAP entry is no PFC, not an error: %+v %v", p, err)
	}

	if w, _, _ := PortPFCWatchdog(db, "Ethernet0"); !cmp.Equal(w, boolMap(3)) {
		t.Errorf("pfcwd_sw_enable 3 of pfc_enable 3,4: %v", w)
	}
	if w, _, _ := PortPFCWatchdog(db, "Ethernet8"); !cmp.Equal(w, boolMap()) {
		t.Errorf("no PFC_WD entry: %v", w)
	}
	db.Tables["FLEX_COUNTER_TABLE"]["PFCWD"]["FLEX_COUNTER_STATUS"] = "disable"
	if w, ex, _ := PortPFCWatchdog(db, "Ethernet4"); !cmp.Equal(w, boolMap()) || !strings.Contains(ex, `"disable"`) {
		t.Errorf("PFCWD polling disabled: %v %q", w, ex)
	}

	if e, _, _ := PortECN(db, "Ethernet4"); !cmp.Equal(e, boolMap()) {
		t.Errorf("ecn_yellow_red does not mark green: %v", e)
	}
	if _, _, err := PortECN(db, "Ethernet8"); err == nil || !strings.Contains(err.Error(), "WRED_PROFILE|GONE") {
		t.Errorf("missing WRED profile: %v", err)
	}
	if s, _, _ := PortScheduler(db, "Ethernet0"); !cmp.Equal(s, map[int]string{3: "wrr", 4: "wrr", 6: "strict"}) {
		t.Errorf("multi-port key, no type, reference form: %v", s)
	}
	if _, _, err := PortScheduler(db, "Ethernet8"); err == nil || !strings.Contains(err.Error(), "SCHEDULER|GONE") {
		t.Errorf("missing scheduler: %v", err)
	}
	if _, _, err := PortScheduler(db, "Ethernet12"); err == nil || !strings.Contains(err.Error(), "Ethernet12|x") {
		t.Errorf("bad queue id: %v", err)
	}

	dyn := "NULL: lossless, computed by the dynamic buffer model"
	if b, _, _ := PortBuffer(db, "Ethernet0"); !cmp.Equal(b, topology.Buffer{LosslessPGs: []int{3, 4}, Profile: "NULL (dynamic)", PGs: map[int]string{3: dyn, 4: dyn}}) {
		t.Errorf("dynamic NULL profile: %+v", b)
	}
	if b, _, err := PortBuffer(db, "Ethernet4"); err != nil || len(b.Unreadable) == 0 || len(b.LosslessPGs) != 0 {
		t.Errorf("empty profile: %+v %v, want its groups unreadable", b, err)
	}
	if b, _, _ := PortBuffer(db, "Ethernet8"); len(b.LosslessPGs) != 0 {
		t.Errorf("lossy-only port: %+v", b)
	}

	for name, f := range map[string]func() error{
		"MTU":   func() error { _, _, err := PortMTU(db, "Ethernet99"); return err },
		"Trust": func() error { _, _, err := PortTrust(db, "Ethernet99"); return err },
		"PFC":   func() error { _, _, err := PortPFC(db, "Ethernet99"); return err },
		"ECN":   func() error { _, _, err := PortECN(db, "Ethernet99"); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "not in the CONFIG_DB PORT table") {
			t.Errorf("%s of a port CONFIG_DB does not have: %v", name, err)
		}
	}
}

// PORT.speed is Mb/s (sonic-port.yang): the reference sample's 100000 is 100 Gb/s, the
// scenario's mock-table 40000 is 40 Gb/s; a port without the field has no speed.
func TestPortSpeed(t *testing.T) {
	for _, tc := range []struct {
		db      *ConfigDB
		port    string
		want    float64
		excerpt string
	}{
		{mustDB(t, verbatim(t, "config_db_3_0_3.json")), "Ethernet0", 100, `PORT|Ethernet0: speed="100000" (Mb/s)`},
		{mustDB(t, scenario(t, "healthy", CmdRunningConfig)), "Ethernet8", 40, `PORT|Ethernet8: speed="40000" (Mb/s)`},
		{mustDB(t, `{"PORT": {"Ethernet0": {"speed": "25000"}, "Ethernet1": {"speed": " 400000 "}}}`), "Ethernet1", 400, `PORT|Ethernet1: speed=" 400000 " (Mb/s)`},
	} {
		got, ex, err := PortSpeed(tc.db, tc.port)
		if err != nil || got != tc.want || ex != tc.excerpt {
			t.Errorf("PortSpeed(%s) = %v, %q, %v; want %v, %q", tc.port, got, ex, err, tc.want, tc.excerpt)
		}
	}
	db := mustDB(t, `{"PORT": {"Ethernet0": {"mtu": "9100"}, "Ethernet4": {"speed": "100G"}, "Ethernet8": {"speed": "0"}}}`)
	for port, want := range map[string]string{
		"Ethernet0":  "PORT|Ethernet0 has no speed field",
		"Ethernet4":  `PORT|Ethernet4 speed "100G" is not a positive number of Mb/s`,
		"Ethernet8":  `PORT|Ethernet8 speed "0" is not a positive number of Mb/s`,
		"Ethernet99": "Ethernet99 is not in the CONFIG_DB PORT table",
	} {
		if got, _, err := PortSpeed(db, port); err == nil || err.Error() != want || got != 0 {
			t.Errorf("PortSpeed(%s) = %v, %v; want error %q", port, got, err, want)
		}
	}
}

// PORT.alias is the name lldpmgrd announces the port by: the DellEMC sample's
// "hundredGigE1/1", the mock table's "etp1"; a port without one, or whose alias is its name,
// has none, and so has a port that is not in PORT.
func TestPortAliases(t *testing.T) {
	for _, tc := range []struct {
		db   *ConfigDB
		port string
		want []string
	}{
		{mustDB(t, verbatim(t, "config_db_3_0_3.json")), "Ethernet0", []string{"hundredGigE1/1"}},
		{mustDB(t, scenario(t, "broken", CmdRunningConfig)), "Ethernet8", []string{"etp3"}},
		{mustDB(t, `{"PORT": {"Ethernet0": {"mtu": "9100"}}}`), "Ethernet0", nil},
		{mustDB(t, `{"PORT": {"Ethernet0": {"alias": " "}}}`), "Ethernet0", nil},
		{mustDB(t, `{"PORT": {"Ethernet0": {"alias": "Ethernet0"}}}`), "Ethernet0", nil},
		{mustDB(t, `{"PORT": {"Ethernet0": {"alias": "etp1"}}}`), "Ethernet4", nil},
	} {
		if got := PortAliases(tc.db, tc.port); !slices.Equal(got, tc.want) {
			t.Errorf("PortAliases(%s) = %q, want %q", tc.port, got, tc.want)
		}
	}
}

func TestGroupByValue(t *testing.T) {
	got := groupByValue(map[int]int{0: 0, 1: 0, 2: 0, 26: 3, 27: 0, 48: 6})
	if got != "0-2,27->0; 26->3; 48->6" {
		t.Errorf("groupByValue = %q", got)
	}
}

// A map read once per switch is still each port's own: changing one port's does not change
// the next's.
func TestGroupedNumberMapIsACopy(t *testing.T) {
	db := mustDB(t, `{"PORT":{"Ethernet0":{}},"DSCP_TO_TC_MAP":{"AZURE":{"0":"1","3":"3"}}}`)
	db.indexKeys()
	a, grouped, err := db.groupedNumberMap("DSCP_TO_TC_MAP", "AZURE", 63)
	if err != nil || grouped != "0->1; 3->3" {
		t.Fatalf("%v %q %v", a, grouped, err)
	}
	a[0] = 7
	if b, _, _ := db.groupedNumberMap("DSCP_TO_TC_MAP", "AZURE", 63); b[0] != 1 {
		t.Errorf("the second port reads DSCP 0 -> %d", b[0])
	}
}
