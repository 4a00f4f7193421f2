package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showVersion renders `show version` (sonic-utilities Command-Reference layout, without the
// docker image table). Build details are fixed, so renders are reproducible.
func showVersion(sw *switchstate.Switch) string {
	serial := strings.ToUpper(strings.ReplaceAll(sw.MAC, ":", ""))
	return fmt.Sprintf(`
SONiC Software Version: %s
SONiC OS Version: 12
Distribution: Debian 12.6
Kernel: 6.1.0-22-2-amd64
Build commit: 5d5ff7a
Build date: Tue Jun 18 03:11:52 UTC 2024
Built by: sonicbld@jenkins-worker-11

Platform: %s
HwSKU: %s
ASIC: mellanox
ASIC Count: 1
Serial Number: MT%s
Model Number: %s
Hardware Rev: A1
Uptime: 09:41:07 up 12 days,  3:02,  1 user,  load average: 0.41, 0.52, 0.49
Date: Mon 02 Dec 2024 09:41:07
`, version(sw), platformName(sw), model(sw), serial, strings.TrimPrefix(model(sw), "Mellanox-"))
}

// showLLDPTable renders `show lldp table` (lldpshow): one row per port whose link is up and
// has a neighbour, in natural port order.
func showLLDPTable(sw *switchstate.Switch) string {
	t := table(false, "LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr")
	for _, p := range sw.SortedPorts() {
		n := p.Neighbor
		if n == nil || !p.Up {
			continue
		}
		t.Rows = append(t.Rows, []string{p.Name, n.SystemName, n.PortID, capability(n), n.PortDescr})
	}
	return "Capability codes: (R) Router, (B) Bridge, (O) Other\n" + t.String() +
		strings.Repeat("-", 50) + "\n" + fmt.Sprintf("Total entries displayed:  %d\n", len(t.Rows))
}

// capability is what a neighbour announces: the lab's switches bridge and route (their ports
// are named like switch ports), its hosts announce a station, which lldpshow prints as Other.
func capability(n *switchstate.Neighbor) string {
	for _, prefix := range []string{"Ethernet", "swp"} {
		if strings.HasPrefix(n.PortID, prefix) {
			return "BR"
		}
	}
	return "O"
}

// showPFCCounters renders `show pfc counters` (pfcstat): the Rx table, a blank line, the Tx
// table.
func showPFCCounters(sw *switchstate.Switch) string {
	var parts []string
	for _, dir := range []string{"Rx", "Tx"} {
		t := table(true, "Port "+dir)
		for prio := 0; prio < 8; prio++ {
			t.Header = append(t.Header, fmt.Sprintf("PFC%d", prio))
		}
		for _, p := range sw.SortedPorts() {
			row := []string{p.Name}
			for prio := 0; prio < 8; prio++ {
				row = append(row, withCommas(counter(p, fmt.Sprintf("pfc_%s_pause_prio%d", strings.ToLower(dir), prio))))
			}
			t.Rows = append(t.Rows, row)
		}
		parts = append(parts, t.String())
	}
	return strings.Join(parts, "\n")
}

// showQueueCounters renders `show queue counters` (queuestat): per port a "For namespace :"
// line, a table of its unicast queues UC0..UC7, and a blank line.
func showQueueCounters(sw *switchstate.Switch) string {
	var b strings.Builder
	for _, p := range sw.SortedPorts() {
		t := table(true, "Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes")
		for q := 0; q < 8; q++ {
			c := func(what string) string { return withCommas(counter(p, fmt.Sprintf("queue%d_%s", q, what))) }
			t.Rows = append(t.Rows, []string{p.Name, fmt.Sprintf("UC%d", q), c("tx_packets"), c("tx_bytes"), c("drops"), c("drop_bytes")})
		}
		b.WriteString("For namespace :\n")
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	return b.String()
}

// showInterfaceCounters renders `show interfaces counters` (portstat, standard columns):
// packet counts per direction (RX_OK and TX_OK sum unicast and non-unicast packets), the
// rates of the last RATES poll (the lab's are idle: 0) and the error columns, right-aligned,
// with thousands separators. The state is U (up), D (down) or X (admin down); the lab's
// down ports are operationally down.
func showInterfaceCounters(sw *switchstate.Switch) string {
	t := table(true, "IFACE", "STATE", "RX_OK", "RX_BPS", "RX_UTIL", "RX_ERR", "RX_DRP", "RX_OVR",
		"TX_OK", "TX_BPS", "TX_UTIL", "TX_ERR", "TX_DRP", "TX_OVR")
	for _, p := range sw.SortedPorts() {
		state := "U"
		if !p.Up {
			state = "D"
		}
		t.Rows = append(t.Rows, []string{p.Name, state, withCommas(counter(p, switchstate.InUcastPkts)), "0.00 B/s", "0.00%",
			"0", "0", "N/A", withCommas(counter(p, switchstate.OutUcastPkts)), "0.00 B/s", "0.00%", "N/A", "N/A", "N/A"})
	}
	return t.String()
}
