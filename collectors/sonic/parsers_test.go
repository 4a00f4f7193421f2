package sonic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/topology"
)

func TestParseLLDPTable(t *testing.T) {
	got, err := ParseLLDPTable(verbatim(t, "show_lldp_table.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.LLDPNeighbor{
		{LocalPort: "Ethernet112", SystemName: "T1-1", PortID: "hundredGigE1/2", PortDescr: "T0-2:hundredGigE1/29"},
		{LocalPort: "Ethernet116", SystemName: "T1-2", PortID: "hundredGigE1/2", PortDescr: "T0-2:hundredGigE1/30"},
		{LocalPort: "eth0", SystemName: "swtor-b2lab2-1610", PortID: "GigabitEthernet 0/2"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbours (-want +got):\n%s", d)
	}
}

func TestParseLLDPTableNoNeighboursAndErrors(t *testing.T) {
	empty := "Capability codes: (R) Router, (B) Bridge, (O) Other\n" +
		"LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr\n" +
		"-----------  --------------  --------------  ------------  -----------------\n" +
		"--------------------------------------------------\nTotal entries displayed:  0\n"
	got, err := ParseLLDPTable(empty)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no neighbours: %v, %v (want an empty, non-nil list)", got, err)
	}
	_, err = ParseLLDPTable("Error response from daemon: Container lldp is not running\n")
	if err == nil || !strings.HasPrefix(err.Error(), CmdLLDP+": ") {
		t.Errorf("not a table: %v", err)
	}
}

func TestParsePFCCounters(t *testing.T) {
	got, err := ParsePFCCounters(verbatim(t, "show_pfc_counters.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(got["Ethernet4"]) != 16 {
		t.Fatalf("ports %d, Ethernet4 counters %d; want 3 and 16", len(got), len(got["Ethernet4"]))
	}
	for name, want := range map[string]int64{"pfc_rx_pause_prio0": 1400, "pfc_rx_pause_prio3": 403, "pfc_tx_pause_prio0": 1410, "pfc_tx_pause_prio7": 417} {
		if got["Ethernet4"][name] != want {
			t.Errorf("Ethernet4 %s = %d, want %d", name, got["Ethernet4"][name], want)
		}
	}
}

// Real switches print a "Last cached time" line and right-align wide numbers (issue
// sonic-buildimage#17886).
func TestParsePFCCountersCachedWide(t *testing.T) {
	got, err := ParsePFCCounters(verbatim(t, "show_pfc_counters_cached.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"pfc_rx_pause_prio0": 0, "pfc_rx_pause_prio1": 0, "pfc_rx_pause_prio2": 0,
		"pfc_rx_pause_prio3": 1974230000000, "pfc_rx_pause_prio4": 0, "pfc_rx_pause_prio5": 0,
		"pfc_rx_pause_prio6": 0, "pfc_rx_pause_prio7": 0}
	if d := cmp.Diff(want, got["Ethernet0"]); d != "" {
		t.Error(d)
	}
}

func TestParsePFCCountersErrors(t *testing.T) {
	for name, out := range map[string]string{
		"no table":   "Error: PFC counters are not available\n",
		"bad number": "  Port Rx    PFC0\n---------  ------\nEthernet0     1x2\n",
		"bad column": "  Port Rx    PFCX\n---------  ------\nEthernet0       1\n",
	} {
		if _, err := ParsePFCCounters(out); err == nil || !strings.HasPrefix(err.Error(), CmdPFCCounters+": ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseQueueCounters(t *testing.T) {
	got, err := ParseQueueCounters(verbatim(t, "show_queue_counters.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"queue0_tx_packets": 0, "queue0_tx_bytes": 0, "queue0_drops": 0, "queue0_drop_bytes": 0,
		"queue1_tx_packets": 60, "queue1_tx_bytes": 43, "queue1_drops": 39, "queue1_drop_bytes": 1,
		"queue2_tx_packets": 82, "queue2_tx_bytes": 7, "queue2_drops": 39, "queue2_drop_bytes": 21,
		"queue3_tx_packets": 52, "queue3_tx_bytes": 70, "queue3_drops": 19, "queue3_drop_bytes": 76,
	}
	if d := cmp.Diff(PortCounters{"Ethernet0": want}, got); d != "" {
		t.Errorf("counters (-want +got):\n%s", d)
	}
}

func TestParseQueueCountersMulticastNAAndErrors(t *testing.T) {
	out := "For namespace :\n" +
		"     Port    TxQ    Counter/pkts    Counter/bytes    Drop/pkts    Drop/bytes\n" +
		"---------  -----  --------------  ---------------  -----------  ------------\n" +
		"Ethernet0    MC8           1,234              N/A            0             0\n"
	got, err := ParseQueueCounters(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"mc_queue8_tx_packets": 1234, "mc_queue8_drops": 0, "mc_queue8_drop_bytes": 0}
	if d := cmp.Diff(want, got["Ethernet0"]); d != "" {
		t.Error(d)
	}
	bad := strings.Replace(out, "MC8", "Q8 ", 1)
	if _, err := ParseQueueCounters(bad); err == nil || !strings.Contains(err.Error(), `"Q8"`) {
		t.Errorf("bad TxQ: %v", err)
	}
	if _, err := ParseQueueCounters("Port Ethernet0 not found\n"); err == nil {
		t.Error("no table accepted")
	}
}

func TestParseVersion(t *testing.T) {
	got, err := ParseVersion(verbatim(t, "show_version.txt"))
	if err != nil || got != "SONiC.HEAD.32-21ea29a (HwSKU Mellanox-SN2700)" {
		t.Errorf("ParseVersion = %q, %v", got, err)
	}
	if _, err := ParseVersion("Arista DCS-7050"); err == nil {
		t.Error("not SONiC accepted")
	}
}

// portstat's golden table (sonic-utilities tests/portstat_test.py): RX_OK/TX_OK as packets,
// commas read, rates and N/A cells ignored.
func TestParseInterfaceCountersVerbatim(t *testing.T) {
	pc, err := ParseInterfaceCounters(verbatim(t, "show_interfaces_counters.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := PortCounters{"Ethernet0": {"rx_packets": 8, "tx_packets": 10}, "Ethernet4": {"rx_packets": 4, "tx_packets": 40},
		"Ethernet8": {"rx_packets": 6, "tx_packets": 60}}
	if d := cmp.Diff(want, pc); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := ParseInterfaceCounters("IFACE  STATE\n-----  -----\nEthernet0  U\n"); err == nil {
		t.Error("a table without RX_OK/TX_OK parsed")
	}
	if _, err := ParseInterfaceCounters(strings.Replace(verbatim(t, "show_interfaces_counters.txt"), "      40", "   forty", 1)); err == nil {
		t.Error("a non-number TX_OK parsed")
	}
}
