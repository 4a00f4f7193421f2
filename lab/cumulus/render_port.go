package cumulus

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// The per-port commands render one port in the switch's regime; each takes the port and
// whether the switch is in RoCE mode.

// showLink renders `nv show interface <if> link` (the rows of the nvue-reference example; the
// operational speed is blank while the link is down).
func showLink(p *switchstate.Port, _ bool) string {
	opSpeed := ""
	if p.Up {
		opSpeed = speed(p)
	}
	mtu := strconv.Itoa(p.MTU)
	return keyTree([]string{"operational", "applied", "pending"}, []kv{
		{"auto-negotiate", 0, []string{"off", "off", "off"}},
		{"duplex", 0, []string{"full", "full", "full"}},
		{"speed", 0, []string{opSpeed, speed(p), speed(p)}},
		{"fec", 0, []string{"", "auto", "auto"}},
		{"mtu", 0, []string{mtu, mtu, mtu}},
	})
}

// showRoCEStatus renders `nv show interface <if> qos roce status` (CL 5.10 layout): the port's
// RoCE settings and the roce and cnp rows of the maps. In the generic regime RoCE is disabled
// switch-wide and the port has no RoCE status: it answers as a missing item.
func showRoCEStatus(p *switchstate.Port, roce bool) (string, string, int) {
	if !roce {
		return "", ItemMissing, 1
	}
	v := portView(p, true)
	tree := keyTree([]string{"operational", "applied", "description"}, []kv{
		{"congestion-control", 0, nil},
		{"congestion-mode", 1, []string{"ecn, absolute", "", "Congestion config mode"}},
		{"enabled-tc", 1, []string{list(p.ECN), "", "Congestion config enabled Traffic Class"}},
		{"max-threshold", 1, []string{"1.43 MB", "", "Congestion config max-threshold"}},
		{"min-threshold", 1, []string{"153.00 KB", "", "Congestion config min-threshold"}},
		{"probability", 1, []string{"100"}},
		{"lldp-app-tlv", 0, nil},
		{"priority", 1, []string{strconv.Itoa(switchstate.RoCEPriority)}},
		{"protocol-id", 1, []string{"4791"}},
		{"selector", 1, []string{"UDP"}},
		{"pfc", 0, nil},
		{"pfc-priority", 1, []string{list(v.pfc), "", "switch-prio on which PFC is enabled"}},
		{"rx-enabled", 1, []string{yesNo(v.rx), "", "PFC Rx Enabled status"}},
		{"tx-enabled", 1, []string{yesNo(v.tx), "", "PFC Tx Enabled status"}},
		{"trust", 0, nil},
		{"trust-mode", 1, []string{"pcp,dscp", "", "Trust Setting on the port for packet classification"}},
		{"mode", 0, []string{"lossless", "", "Roce Mode"}},
	})
	var prio, tc [][]string
	for _, r := range []struct {
		label     string
		pcp, dscp int
	}{{"cnp", switchstate.CNPPriority, 48}, {"roce", switchstate.RoCEPriority, 26}} {
		sp := p.DSCPToTC[r.dscp]
		prio = append(prio, []string{r.label, strconv.Itoa(r.pcp), strconv.Itoa(r.dscp), strconv.Itoa(sp)})
		class := v.spToTC[sp]
		tc = append(tc, []string{r.label, strconv.Itoa(sp), strconv.Itoa(class), schedulerWeight(p.Strict[class], true)})
	}
	status := map[string][]string{
		"lossy-default-ingress": {"2", "15.16 MB", "0 Bytes", "16.00 MB"},
		"roce-reserved-ingress": {"3", "15.16 MB", "7.30 MB", "7.90 MB"},
		"lossy-default-egress":  {"13", "15.16 MB", "0 Bytes", "16.01 MB"},
		"roce-reserved-egress":  {"14", "inf", "7.29 MB", "13.47 MB"},
	}
	var pools [][]string
	for i, pl := range pools4(v) {
		s := status[pl.name]
		pools = append(pools, []string{strconv.Itoa(i), pl.name, "DYNAMIC", s[0], pl.sps, pl.tcs, s[1], s[2], s[3]})
	}
	return joinBlocks(tree,
		section("RoCE PCP/DSCP->SP mapping configurations", []string{"", "pcp", "dscp", "switch-prio"}, prio),
		section("RoCE SP->TC mapping and ETS configurations", []string{"", "switch-prio", "traffic-class", "scheduler-weight"}, tc),
		section("RoCE Pool Status", []string{"", "name", "mode", "pool-id", "switch-priorities", "traffic-class", "size", "current-usage", "max-usage"}, pools),
	), "", 0
}

// showMapping renders `nv show interface <if> qos mapping`: the trust setting and the PCP and
// DSCP to switch-priority tables; a port that trusts only PCP lists no DSCP rows, as NVIDIA's
// example shows.
func showMapping(p *switchstate.Port, roce bool) string {
	v := portView(p, roce)
	tree := keyTree([]string{"operational", "applied"}, []kv{
		{"port-default-sp", 0, []string{"0"}},
		{"trust", 0, []string{v.trust}},
	})
	var pcp, dscp [][]string
	for i := 0; i < 8; i++ {
		pcp = append(pcp, []string{strconv.Itoa(i), strconv.Itoa(i)})
	}
	dscpPart := "DSCP->SP mapping configuration\n" + "=================================\n"
	if v.trust != "l2" {
		for d, sp := range p.DSCPToTC {
			dscp = append(dscp, []string{strconv.Itoa(d), strconv.Itoa(sp)})
		}
		dscpPart = section("DSCP->SP mapping configuration", []string{"dscp", "switch-priority"}, dscp)
	}
	return joinBlocks(tree, section("PCP->SP mapping configuration", []string{"802.1p", "switch-priority"}, pcp), dscpPart)
}

// showEgressQueueMapping renders `nv show interface <if> qos egress-queue-mapping`.
func showEgressQueueMapping(p *switchstate.Port, roce bool) string {
	v := portView(p, roce)
	var rows [][]string
	for sp, tc := range v.spToTC {
		rows = append(rows, []string{strconv.Itoa(sp), strconv.Itoa(tc)})
	}
	return section("SP->TC mapping configuration", []string{"switch-priority", "traffic-class"}, rows)
}

// showEgressScheduler renders `nv show interface <if> qos egress-scheduler`: each traffic class
// in use strict or DWRR, the DWRR classes sharing 100% as evenly as whole percents allow (RoCE
// mode: classes 0 and 3 at 50%, 6 strict).
func showEgressScheduler(p *switchstate.Port, roce bool) string {
	classes := portView(p, roce).trafficClasses()
	var dwrr int
	for _, tc := range classes {
		if !p.Strict[tc] {
			dwrr++
		}
	}
	var rows [][]string
	n := 0
	for _, tc := range classes {
		if p.Strict[tc] {
			rows = append(rows, []string{strconv.Itoa(tc), "strict", ""})
			continue
		}
		share := 100*(n+1)/dwrr - 100*n/dwrr
		n++
		rows = append(rows, []string{strconv.Itoa(tc), "dwrr", strconv.Itoa(share)})
	}
	return section("TC->DWRR weight configuration", []string{"traffic-class", "mode", "bw-percent"}, rows)
}

// showCongestionControl renders `nv show interface <if> qos congestion-control`: a row for
// every traffic class that marks ECN.
func showCongestionControl(p *switchstate.Port, _ bool) string {
	var rows [][]string
	for tc, on := range p.ECN {
		if on {
			rows = append(rows, []string{strconv.Itoa(tc), "enable", "disable", "153.00 KB", "1.43 MB", "100"})
		}
	}
	return section("ECN configuration", []string{"traffic-class", "ECN", "RED", "Min Th", "Max Th", "Probability"}, rows)
}

// showPFC renders `nv show interface <if> qos pfc`: rx and tx off as NVIDIA's example shows
// when the port has no PFC, else the PFC profile with its switch priorities.
func showPFC(p *switchstate.Port, roce bool) string {
	v := portView(p, roce)
	if !v.rx && !v.tx {
		return keyTree([]string{"operational", "applied"}, []kv{
			{"rx", 0, []string{"disable"}},
			{"tx", 0, []string{"disable"}},
		})
	}
	rows := []kv{
		{"cable-length", 0, []string{"100", "100", "Cable Length (in meters)"}},
		{"port-buffer", 0, []string{"30000 B", "30000 B", "Port Buffer (in bytes)"}},
		{"rx", 0, []string{enable(v.rx), enable(v.rx), "PFC Rx State"}},
		{"tx", 0, []string{enable(v.tx), enable(v.tx), "PFC Tx State"}},
		{"xoff-threshold", 0, []string{"10000 B", "10000 B", "Xoff Threshold (in bytes)"}},
		{"xon-threshold", 0, []string{"2000 B", "2000 B", "Xon Threshold (in bytes)"}},
	}
	for sp, on := range v.pfc {
		if on {
			rows = append(rows, kv{"[switch-priority]", 0, []string{strconv.Itoa(sp), strconv.Itoa(sp), "Collection of switch priorities"}})
		}
	}
	return keyTree([]string{"operational", "applied", "description"}, rows)
}

// showLinkPause renders `nv show interface <if> qos link-pause`.
func showLinkPause(p *switchstate.Port, _ bool) string {
	return keyTree([]string{"operational", "applied"}, []kv{
		{"rx", 0, []string{enable(p.PauseRX)}},
		{"tx", 0, []string{enable(p.PauseTX)}},
	})
}

// showPFCWatchdog renders `nv show interface <if> qos pfc-watchdog`: the port's state and,
// while it is on, the status of every traffic class.
func showPFCWatchdog(p *switchstate.Port, roce bool) string {
	v := portView(p, roce)
	tree := keyTree([]string{"operational", "applied"}, []kv{{"state", 0, []string{enabled(v.watchdog), enabled(v.watchdog)}}})
	if !v.watchdog {
		return tree
	}
	var rows [][]string
	for tc := 0; tc < 8; tc++ {
		rows = append(rows, []string{strconv.Itoa(tc), "OK", "0"})
	}
	return joinBlocks(tree, section("PFC WD Status", []string{"traffic-class", "status", "deadlock-count"}, rows))
}

// showCountersQoS renders `nv show interface <if> counters qos` (CL 5.5+) from the state's
// counters, named as the collector reports them, except the port's pause frames, which are
// the shared rx_pause / tx_pause. Byte counts are humanised as NVUE prints them.
func showCountersQoS(p *switchstate.Port, _ bool) string {
	c := func(format string, i int) int64 { return p.Counters[fmt.Sprintf(format, i)] }
	var pg, eg, pfc [][]string
	for i := 0; i < 8; i++ {
		n := strconv.Itoa(i)
		pg = append(pg, []string{n, num(c("pg%d_rx_frames", i)), humanBytes(c("pg%d_rx_discard_bytes", i)),
			humanBytes(c("pg%d_rx_shared_discard_bytes", i))})
		eg = append(eg, []string{n, num(c("queue%d_tx_packets", i)), humanBytes(c("queue%d_tx_bytes", i)),
			humanBytes(c("queue%d_drop_bytes", i)), num(c("queue%d_wred_drops", i))})
		pfc = append(pfc, []string{n, num(c("pfc_rx_pause_prio%d", i)), num(c("pfc_rx_pause_duration_prio%d", i)),
			num(c("pfc_tx_pause_prio%d", i)), num(c("pfc_tx_pause_duration_prio%d", i))})
	}
	port := [][]string{
		{"ecn-marked-packets", "n/a", num(p.Counters["ecn_marked_packets_tx"])},
		{"mc-buffer-discards", "n/a", num(p.Counters["mc_buffer_discards_tx"])},
		{"pause-frames", num(p.Counters["rx_pause"]), num(p.Counters["tx_pause"])},
	}
	return joinBlocks(
		section("Ingress Buffer Statistics", []string{"priority-group", "rx-frames", "rx-buffer-discards", "rx-shared-buffer-discards"}, pg),
		section("Egress Queue Statistics", []string{"traffic-class", "tx-frames", "tx-bytes", "tx-uc-buffer-discards", "wred-discards"}, eg),
		section("PFC Statistics", []string{"switch-priority", "rx-pause-frames", "rx-pause-duration", "tx-pause-frames", "tx-pause-duration"}, pfc),
		section("Qos Port Statistics", []string{"Counter", "Receive", "Transmit"}, port),
	)
}

func num(n int64) string { return strconv.FormatInt(n, 10) }

func yesNo(on bool) string {
	if on {
		return "yes"
	}
	return "no"
}

func enable(on bool) string {
	if on {
		return "enable"
	}
	return "disable"
}

// linkStats are the port's traffic counters as NVUE's link stats object names them
// (/interface/<if>/link/stats in the NVUE API): every frame, so in-pkts/out-pkts are all
// packets; drops and errors stay 0 in the lab.
func linkStats(p *switchstate.Port) map[string]int64 {
	return map[string]int64{"carrier-transitions": 1, "in-bytes": p.Counters[switchstate.InOctets], "in-drops": 0,
		"in-errors": 0, "in-pkts": p.Counters[switchstate.InUcastPkts], "out-bytes": p.Counters[switchstate.OutOctets],
		"out-drops": 0, "out-errors": 0, "out-pkts": p.Counters[switchstate.OutUcastPkts]}
}

// showLinkStats renders `nv show interface <if> link stats`: the operational column, bytes
// humanised as NVUE's text does ("300 Bytes", "280.15 MB").
func showLinkStats(p *switchstate.Port, _ bool) string {
	st := linkStats(p)
	var rows []kv
	for _, k := range slices.Sorted(maps.Keys(st)) { // NVUE lists them alphabetically
		v := strconv.FormatInt(st[k], 10)
		if strings.HasSuffix(k, "-bytes") {
			v = humanBytes(st[k])
		}
		rows = append(rows, kv{k, 0, []string{v}})
	}
	return keyTree([]string{"operational"}, rows)
}

// showLinkStatsJSON renders `nv show interface <if> link stats -o json`: raw numbers.
func showLinkStatsJSON(p *switchstate.Port, _ bool) string { return nvJSON(linkStats(p)) }
