package nxos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// queueStat is one statistic of a QOS GROUP box: its type and unit as NX-OS labels them, and
// the state counter of qos-group g it shows (the lab's qos-group g is queue g); "" is a
// statistic the state does not keep, shown as 0.
type queueStat struct {
	kind, units, counter string
	jsonOnly             bool
}

// queueStats are the box rows of the real N9K text (a third-party capture, see fixtures/README.md), in its order; the
// ECN type is only in the JSON (where a Cisco engineer's NX-API client reads it); the text
// seen on a real switch had no ECN row.
var queueStats = []queueStat{
	{kind: "Tx", units: "Pkts", counter: "queue%d_tx_packets"},
	{kind: "Tx", units: "Byts", counter: "queue%d_tx_bytes"},
	{kind: "WRED/AFD & Tail Drop", units: "Pkts", counter: "queue%d_drops"},
	{kind: "WRED/AFD & Tail Drop", units: "Byts", counter: "queue%d_drop_bytes"},
	{kind: "Q Depth", units: "Byts"},
	{kind: "WD & Tail Drop", units: "Pkts", counter: "queue%d_watchdog_drops"},
	{kind: "ECN", units: "Pkts", counter: "queue%d_ecn_marked_packets", jsonOnly: true},
}

func (s queueStat) value(p *switchstate.Port, g int) int64 {
	if s.counter == "" {
		return 0
	}
	return counter(p, fmt.Sprintf(s.counter, g))
}

// showQueuing renders `show queuing interface`: per port, the egress section with one QOS
// GROUP box per qos-group (unicast and multicast columns; the lab's traffic is unicast), then
// the ingress section's headings.
func showQueuing(sw *switchstate.Switch) string {
	var b strings.Builder
	b.WriteString("\nslot  1\n=======\n\n")
	rule := "+-------------------------------------------------------------+\n"
	for _, p := range sw.Ports {
		fmt.Fprintf(&b, "\nEgress Queuing for %s [System]\n", p.Name)
		for g := 0; g < 8; g++ {
			b.WriteString(rule)
			fmt.Fprintf(&b, "|%30sQOS GROUP %-21d|\n", "", g)
			b.WriteString(rule)
			fmt.Fprintf(&b, "|%27s|%-16s|%-16s|\n", "", "  Unicast", "Multicast")
			b.WriteString(rule)
			for _, st := range queueStats {
				if st.jsonOnly {
					continue
				}
				fmt.Fprintf(&b, "|%26s |%16d|%16d|\n", st.kind+" "+st.units, st.value(p, g), 0)
			}
		}
		b.WriteString(rule)
		fmt.Fprintf(&b, "\nIngress Queuing for %s\n", p.Name)
		b.WriteString("Per Port Ingress Statistics\n")
		fmt.Fprintf(&b, "Hi Priority Drop Pkts %d\nLow Priority Drop Pkts %d\n", 0, 0)
	}
	return b.String()
}

type qStatRow struct {
	Type    string `json:"eq-stat-type"`
	Units   string `json:"eq-stat-units"`
	Unicast string `json:"eq-uc-stat-value"`
	OOBFC   string `json:"eq-oobfc-uc-stat-value"`
	Multi   string `json:"eq-mc-stat-value"`
}

type qGroupRow struct {
	Group   string `json:"eq-qosgrp"`
	Entries struct {
		Rows any `json:"ROW_qosgrp_egress_stats_entry"`
	} `json:"TABLE_qosgrp_egress_stats_entry"`
}

type qIfRow struct {
	Dir    string `json:"dir"`
	IfName string `json:"if_name_str"`
	Groups *struct {
		Rows any `json:"ROW_qosgrp_egress_stats"`
	} `json:"TABLE_qosgrp_egress_stats,omitempty"`
}

// showQueuingJSON renders `show queuing interface | json`: TABLE_module.ROW_module.
// TABLE_queuing_interface.ROW_queuing_interface with an Egress and an Ingress row per port
// (dir, if_name_str); the Egress row holds TABLE_qosgrp_egress_stats.ROW_qosgrp_egress_stats
// (eq-qosgrp) -> TABLE_qosgrp_egress_stats_entry.ROW_qosgrp_egress_stats_entry. Numbers are
// strings, as NX-OS prints them.
func showQueuingJSON(sw *switchstate.Switch) string {
	var ifs []qIfRow
	for _, p := range sw.Ports {
		var groups []qGroupRow
		for g := 0; g < 8; g++ {
			var entries []qStatRow
			for _, st := range queueStats {
				entries = append(entries, qStatRow{Type: st.kind, Units: st.units, Unicast: itoa(st.value(p, g)), OOBFC: "0", Multi: "0"})
			}
			row := qGroupRow{Group: itoa(g)}
			row.Entries.Rows = rows(entries)
			groups = append(groups, row)
		}
		egress := qIfRow{Dir: "Egress", IfName: p.Name, Groups: &struct {
			Rows any `json:"ROW_qosgrp_egress_stats"`
		}{Rows: rows(groups)}}
		ifs = append(ifs, egress, qIfRow{Dir: "Ingress", IfName: p.Name})
	}
	type module struct {
		Table struct {
			Rows any `json:"ROW_queuing_interface"`
		} `json:"TABLE_queuing_interface"`
	}
	var m module
	m.Table.Rows = rows(ifs)
	return jsonOut(map[string]any{"TABLE_module": map[string]any{"ROW_module": m}})
}
