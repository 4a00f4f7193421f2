package cumulus

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/roceaudit/roceaudit/topology"
)

// roceValues compares RoCE without its excerpts.
var roceValues = cmpopts.IgnoreFields(RoCE{}, "Excerpts")

func spEight() map[int]int {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		m[d] = d / 8
	}
	return m
}

func TestParseRoCELossless(t *testing.T) {
	got, err := ParseRoCE(verbatim(t, "nv_show_qos_roce.lossless-5.10.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := &RoCE{
		Enabled: true, Mode: "lossless", Trust: "both",
		PFCPriorities: []int{3}, PFCRX: true, PFCTX: true,
		ECN: true, ECNTCs: []int{0, 3},
		DSCPToSP:    spEight(),
		SPToTC:      map[int]int{0: 0, 1: 0, 2: 0, 3: 3, 4: 0, 5: 0, 6: 6, 7: 0},
		TCScheduler: map[int]string{0: "dwrr", 3: "dwrr", 6: "strict"},
		Pools: []Pool{
			{Name: "lossy-default-ingress", SwitchPriorities: []int{0, 1, 2, 4, 5, 6, 7}, TrafficClasses: []int{}},
			{Name: "roce-reserved-ingress", SwitchPriorities: []int{3}, TrafficClasses: []int{}},
			{Name: "lossy-default-egress", SwitchPriorities: []int{}, TrafficClasses: []int{0, 6}},
			{Name: "roce-reserved-egress", SwitchPriorities: []int{}, TrafficClasses: []int{3}},
		},
	}
	if d := cmp.Diff(want, got, roceValues); d != "" {
		t.Errorf("RoCE (-want +got):\n%s", d)
	}
	if got.Excerpts[ExPFC] != "  pfc-priority      3\n  rx-enabled        enabled\n  tx-enabled        enabled" {
		t.Errorf("PFC excerpt %q", got.Excerpts[ExPFC])
	}
}

// Other modes and releases: lossy (no PFC), CL 5.15's shared ingress pool (no reserved RoCE
// pool, rows in another order), lossy-multi-tc ("-" DSCP lists, `enable on` operational).
func TestParseRoCEModes(t *testing.T) {
	lossy, err := ParseRoCE(verbatim(t, "nv_show_qos_roce.lossy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if lossy.Mode != "lossy" || len(lossy.PFCPriorities) != 0 || lossy.PFCRX || lossy.DSCPToSP[26] != 3 {
		t.Errorf("lossy = %+v", lossy)
	}
	single, err := ParseRoCE(verbatim(t, "nv_show_qos_roce.single-ipool-5.15.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if single.Mode != "lossless-single-ipool" || !cmp.Equal(single.PFCPriorities, []int{3}) || !single.PFCTX || len(single.Pools) != 3 {
		t.Errorf("single-ipool = %+v", single)
	}
	multi, err := ParseRoCE(verbatim(t, "nv_show_qos_roce.lossy-multi-tc-5.15.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !multi.Enabled || multi.DSCPToSP[26] != 4 || multi.DSCPToSP[48] != 0 || len(multi.PFCPriorities) != 0 ||
		!cmp.Equal(multi.ECNTCs, []int{1, 2, 3}) || multi.TCScheduler[6] != "dwrr" {
		t.Errorf("lossy-multi-tc = %+v", multi)
	}
	if len(multi.DSCPToSP) != 64 {
		t.Errorf("lossy-multi-tc maps %d DSCPs, want 64", len(multi.DSCPToSP))
	}
}

func TestParseRoCEDisabled(t *testing.T) {
	got, err := ParseRoCE(verbatim(t, "nv_show_qos_roce.disabled.txt"))
	if err != nil || got.Enabled || got.Excerpts[ExMode] != "enable               off" {
		t.Errorf("disabled = %+v, %v", got, err)
	}
	// CL 5.15 renames enable on|off to state enabled|disabled.
	renamed := "        operational  applied\n------  -----------  --------\nstate                disabled\n"
	if got, err := ParseRoCE(renamed); err != nil || got.Enabled {
		t.Errorf("state disabled = %+v, %v", got, err)
	}
}

func TestParseRoCEErrors(t *testing.T) {
	lossless := verbatim(t, "nv_show_qos_roce.lossless-5.10.txt")
	for name, out := range map[string]string{
		"not NVUE":        "Error: Not Found\n",
		"bad enable":      strings.Replace(lossless, "on      \nmode", "maybe   \nmode", 1),
		"no mode":         strings.Replace(lossless, "mode                lossless     lossless", "", 1),
		"bad dscp":        strings.Replace(lossless, "24,25,26,27,28,29,30,31", "24,25,26,27,28,29,30,99", 1),
		"bad scheduler":   strings.Replace(lossless, "strict-priority", "fifo           ", 1),
		"no maps":         lossless[:strings.Index(lossless, "RoCE PCP/DSCP")],
		"lossless no pfc": strings.Replace(lossless, "  pfc-priority      3                    \n", "", 1),
		"pfc no rx":       strings.Replace(lossless, "  rx-enabled        enabled              \n", "", 1),
	} {
		if _, err := ParseRoCE(out); err == nil || !strings.HasPrefix(err.Error(), CmdRoCE+": ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestParseRoCEStatus(t *testing.T) {
	want := &RoCE{
		Enabled: true, Mode: "lossless", Trust: "both",
		PFCPriorities: []int{3}, PFCRX: true, PFCTX: true,
		ECN: true, ECNTCs: []int{0, 3},
		DSCPToSP:    map[int]int{26: 3, 48: 6},
		SPToTC:      map[int]int{3: 3, 6: 6},
		TCScheduler: map[int]string{3: "dwrr", 6: "strict"},
	}
	short, err := ParseRoCEStatus(verbatim(t, "nv_show_interface_qos_roce_status.5.10-switches-md.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, short, roceValues); d != "" {
		t.Errorf("5.10 excerpt (-want +got):\n%s", d)
	}
	for _, f := range []string{"nv_show_interface_qos_roce_status.5.10.txt", "nv_show_interface_qos_roce_status.5.15.txt"} {
		full, err := ParseRoCEStatus(verbatim(t, f))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, full, roceValues, cmpopts.IgnoreFields(RoCE{}, "Pools")); d != "" {
			t.Errorf("%s (-want +got):\n%s", f, d)
		}
		if len(full.Pools) != 4 || full.Pools[1].Name != "roce-reserved-ingress" || !cmp.Equal(full.Pools[1].SwitchPriorities, []int{3}) {
			t.Errorf("%s pools = %+v", f, full.Pools)
		}
	}
	if _, err := ParseRoCEStatus("Error: RoCE is not enabled\n"); err == nil || !strings.HasPrefix(err.Error(), TmplRoCEStatus) {
		t.Errorf("no status: %v", err)
	}
}

func TestParseInterfaceLLDP(t *testing.T) {
	got, err := ParseInterfaceLLDP(verbatim(t, "nv_show_interface_lldp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("%d rows, want 10", len(got))
	}
	want := []Interface{
		{Name: "eth0", Type: "eth", RemoteHost: "oob-mgmt-switch", RemotePort: "swp10"},
		{Name: "swp1", Type: "swp", RemoteHost: "server01", RemotePort: "48:b0:2d:76:ee:8e"},
		{Name: "swp54", Type: "swp", RemoteHost: "spine04", RemotePort: "swp1"},
	}
	if d := cmp.Diff(want, []Interface{got[0], got[1], got[9]}, cmpopts.IgnoreFields(Interface{}, "Line")); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	noNeighbour := "Interface  Speed  Type  Remote Host  Remote Port\n---------  -----  ----  -----------  -----------\nswp7       100G   swp\n"
	if got, err := ParseInterfaceLLDP(noNeighbour); err != nil || len(got) != 1 || got[0].RemoteHost != "" {
		t.Errorf("port without neighbour = %+v, %v", got, err)
	}
	if _, err := ParseInterfaceLLDP(verbatim(t, "nv_show_system.txt")); err == nil {
		t.Error("another table accepted")
	}
}

// NVUE truncates a cell longer than its column and ends it with "…", as it ends the column's
// dash run (NVIDIA's `nv show interface` example). The table is still read; a truncated remote
// port (a host's MAC cut to "48:b0:2d:76:ee…") is unknown, not a value.
func TestParseInterfaceLLDPTruncated(t *testing.T) {
	got, err := ParseInterfaceLLDP(verbatim(t, "nv_show_interface_lldp.truncated.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("%d rows, want 10", len(got))
	}
	want := []Interface{
		{Name: "eth0", Type: "eth", RemoteHost: "oob-mgmt-switch", RemotePort: "swp10"},
		{Name: "swp1", Type: "swp", RemoteHost: "server01", RemotePort: "", Truncated: []string{"Remote Port"},
			Line: "swp1       1G     swp   server01         48:b0:2d:76:ee…"},
		{Name: "swp54", Type: "swp", RemoteHost: "spine04", RemotePort: "swp1"},
	}
	got[0].Line, got[9].Line = "", ""
	if d := cmp.Diff(want, []Interface{got[0], got[1], got[9]}); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}

	// A name or a host cut short: the row is kept (it is a port), the host is unknown.
	cut := "Interface  Type  Remote Host  Remote Port\n" +
		"--------…  ----  ----------…  -----------\n" +
		"swp1s1…    swp   spine0…      swp1\n"
	got, err = ParseInterfaceLLDP(cut)
	if err != nil {
		t.Fatal(err)
	}
	wantCut := []Interface{{Name: "swp1s1…", Type: "swp", RemotePort: "swp1", Truncated: []string{"Interface", "Remote Host"},
		Line: "swp1s1…    swp   spine0…      swp1"}}
	if d := cmp.Diff(wantCut, got); d != "" || !got[0].NameTruncated() {
		t.Errorf("truncated name and host (-want +got):\n%s", d)
	}
}

func TestParseLink(t *testing.T) {
	got, err := ParseLink(verbatim(t, "nv_show_interface_link.txt"))
	if err != nil || got.MTU != 9000 || got.FromApplied {
		t.Errorf("link = %+v, %v (operational 9000 wins over applied 9216)", got, err)
	}
	if got.Speed != 1 || got.SpeedErr != nil || got.SpeedLine != "speed                  1G                 auto     auto" {
		t.Errorf("speed = %v, %v, %q; want operational 1G as 1 Gb/s", got.Speed, got.SpeedErr, got.SpeedLine)
	}
	applied := "     operational  applied\n---  -----------  -------\nmtu               9216\n"
	if got, err := ParseLink(applied); err != nil || got.MTU != 9216 || !got.FromApplied {
		t.Errorf("applied only = %+v, %v", got, err)
	} else if got.Speed != 0 || got.SpeedErr == nil || got.SpeedErr.Error() != "no speed row in the output" {
		t.Errorf("no speed row: %v, %v", got.Speed, got.SpeedErr)
	}
	down, err := ParseLink(scenario(t, "broken", "nv show interface swp52 link"))
	if err != nil || down.MTU != 9000 || down.Speed != 0 || !errors.Is(down.SpeedErr, ErrNoOperationalSpeed) {
		t.Errorf("link down = %+v, %v; want MTU 9000 and no operational speed", down, err)
	}
	if _, err := ParseLink(verbatim(t, "nv_show_interface_qos_pfc.txt")); err == nil {
		t.Error("no mtu accepted")
	}
}

func TestParseSpeed(t *testing.T) {
	for in, want := range map[string]float64{"1G": 1, "25G": 25, "100G": 100, "400G": 400, "800G": 800, "100M": 0.1, "10M": 0.01, "2.5G": 2.5, "100g": 100} {
		if got, err := parseSpeed(in); err != nil || got != want {
			t.Errorf("parseSpeed(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"auto", "100", "G", "0G", "100 Gb/s", "-"} {
		if got, err := parseSpeed(in); err == nil {
			t.Errorf("parseSpeed(%q) = %v, want an error", in, got)
		}
	}
}

func TestParseMapping(t *testing.T) {
	got, err := ParseMapping(verbatim(t, "nv_show_interface_qos_mapping.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := Mapping{Trust: "pcp", PortDefaultSP: 0, DSCPToSP: map[int]int{},
		PCPToSP: map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(Mapping{}, "Excerpt")); d != "" {
		t.Errorf("mapping (-want +got):\n%s", d)
	}
	if !strings.Contains(got.Excerpt, "DSCP->SP mapping configuration: (no rows)") {
		t.Errorf("excerpt %q", got.Excerpt)
	}
	// The profile form has no tables; a DSCP table in the form of `qos mapping <profile> dscp`.
	prof, err := ParseMapping(verbatim(t, "nv_show_qos_mapping_default-global.txt"))
	if err != nil || prof.Trust != "none" || prof.PortDefaultSP != 3 {
		t.Errorf("default-global = %+v, %v", prof, err)
	}
	withDSCP := verbatim(t, "nv_show_interface_qos_mapping.txt") +
		"    DSCP  switch-priority\n    ----  ---------------\n    26    3\n    48    6\n"
	if m, err := ParseMapping(withDSCP); err != nil || !cmp.Equal(m.DSCPToSP, map[int]int{26: 3, 48: 6}) {
		t.Errorf("DSCP rows = %v, %v", m.DSCPToSP, err)
	}
	if _, err := ParseMapping(verbatim(t, "nv_show_interface_qos_pfc.txt")); err == nil {
		t.Error("no trust accepted")
	}
}

func TestParseEgress(t *testing.T) {
	q, _, err := ParseEgressQueueMapping(verbatim(t, "nv_show_interface_qos_egress-queue-mapping.txt"))
	if err != nil || !cmp.Equal(q, map[int]int{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}) {
		t.Errorf("queue mapping = %v, %v", q, err)
	}
	s, ex, err := ParseEgressScheduler(verbatim(t, "nv_show_interface_qos_egress-scheduler.txt"))
	if err != nil || len(s) != 8 || s[6] != "dwrr" || !strings.Contains(ex, "6 dwrr 12%") {
		t.Errorf("port scheduler = %v %q, %v", s, ex, err)
	}
	g, _, err := ParseEgressScheduler(verbatim(t, "nv_show_qos_egress-scheduler_default-global.txt"))
	want := map[int]string{0: "strict", 1: "strict", 2: "dwrr", 3: "dwrr", 4: "dwrr", 5: "strict", 6: "dwrr", 7: "strict"}
	if err != nil || !cmp.Equal(g, want) {
		t.Errorf("default-global scheduler = %v, %v", g, err)
	}
	for _, f := range []func(string) error{
		func(o string) error { _, _, err := ParseEgressQueueMapping(o); return err },
		func(o string) error { _, _, err := ParseEgressScheduler(o); return err },
		func(o string) error { _, _, err := ParseCongestionControl(o); return err },
	} {
		if err := f(verbatim(t, "nv_show_interface_qos_link-pause.txt")); err == nil {
			t.Error("a link-pause output accepted")
		}
	}
}

func TestParseCongestionControl(t *testing.T) {
	port, ex, err := ParseCongestionControl(verbatim(t, "nv_show_interface_qos_congestion-control.txt"))
	if err != nil || !cmp.Equal(port, map[int]bool{0: true}) || !strings.Contains(ex, "153.00 KB") {
		t.Errorf("port = %v %q, %v", port, ex, err)
	}
	prof, _, err := ParseCongestionControl(verbatim(t, "nv_show_qos_congestion-control_default-global.txt"))
	if err != nil || !cmp.Equal(prof, map[int]bool{4: true, 5: true, 7: true}) {
		t.Errorf("default-global = %v, %v", prof, err)
	}
}

func TestParseFlowControl(t *testing.T) {
	pfc, err := ParsePFC(verbatim(t, "nv_show_interface_qos_pfc.txt"))
	if err != nil || pfc.RX || pfc.TX || pfc.Listed {
		t.Errorf("port pfc = %+v, %v", pfc, err)
	}
	prof, err := ParsePFC(verbatim(t, "nv_show_qos_pfc_default-global.txt"))
	if err != nil || prof.RX || !prof.TX || !prof.Listed || !cmp.Equal(prof.SwitchPriorities, []int{0}) {
		t.Errorf("default-global pfc = %+v, %v", prof, err)
	}
	pause, ex, err := ParseLinkPause(verbatim(t, "nv_show_interface_qos_link-pause.txt"))
	if err != nil || pause != (topology.Pause{}) || ex != "rx  disable\ntx  disable" {
		t.Errorf("link pause = %+v %q, %v", pause, ex, err)
	}
	if _, _, err := ParseLinkPause("    operational  applied\n--  -----------  -------\nrx  disable\n"); err == nil {
		t.Error("no tx row accepted")
	}
	on, ex, err := ParsePFCWatchdog(verbatim(t, "nv_show_interface_qos_pfc-watchdog.txt"))
	if err != nil || !on || ex != "state            enabled      enabled" {
		t.Errorf("watchdog = %v %q, %v", on, ex, err)
	}
	if _, _, err := ParsePFCWatchdog(verbatim(t, "nv_show_interface_qos_pfc.txt")); err == nil {
		t.Error("no state accepted")
	}
}

func TestParseCountersQoS(t *testing.T) {
	got, err := ParseCountersQoS(verbatim(t, "nv_show_interface_counters_qos.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// 8 PGs x 3 + 8 queues x 4 + 8 priorities x 4 + port table (n/a cells left out): 4.
	if len(got) != 24+32+32+4 {
		t.Errorf("%d counters, want 92", len(got))
	}
	for _, name := range []string{"pfc_rx_pause_prio3", "queue3_tx_bytes", "pg7_rx_shared_discard_bytes", "ecn_marked_packets_tx", "pause_frames_rx"} {
		if _, ok := got[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if _, ok := got["ecn_marked_packets_rx"]; ok {
		t.Error("n/a read as a value")
	}
	bumped := strings.Replace(verbatim(t, "nv_show_interface_counters_qos.txt"),
		"    3              0          0 Bytes   0 Bytes ", "    3              52         1.43 MB   2 KB    ", 1)
	got, err = ParseCountersQoS(bumped)
	if err != nil || got["queue3_tx_packets"] != 52 || got["queue3_tx_bytes"] != 1499464 || got["queue3_drop_bytes"] != 2048 {
		t.Errorf("humanised values: %v, %v", got, err)
	}
	if _, err := ParseCountersQoS("Error: counters not supported\n"); err == nil {
		t.Error("no tables accepted")
	}
}

func TestParseSystem(t *testing.T) {
	if got, err := ParseSystem(verbatim(t, "nv_show_system.txt")); err != nil || got != "Cumulus Linux 5.5.0" {
		t.Errorf("5.5 = %q, %v", got, err)
	}
	// Later releases print rows without a header (CumulusNetworks/docs nvue-reference System
	// page, index id 15084871719; first rows, trailing spaces trimmed).
	later := "uptime             1 day, 1:52:24\nhostname           leaf01\nproduct-name       Cumulus Linux\nplatform           N/A\n"
	if got, err := ParseSystem(later); err != nil || got != "Cumulus Linux" {
		t.Errorf("later = %q, %v", got, err)
	}
	if _, err := ParseSystem("SONiC Software Version: SONiC.HEAD\n"); err == nil {
		t.Error("not Cumulus accepted")
	}
}
