package sonic

// The counter parsers as they were before counterRows: the oracles of the differential tests
// (counters_diff_test.go).

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

func (pc PortCounters) oldSet(port, name string, v int64) {
	if pc[port] == nil {
		pc[port] = map[string]int64{}
	}
	pc[port][name] = v
}

func oldParseQueueCounters(out string) (PortCounters, error) {
	pc := PortCounters{}
	seen := false
	for _, t := range parseTables(out) {
		port, q := t.column("Port"), t.column("TxQ")
		if port < 0 || q < 0 {
			continue
		}
		seen = true
		for _, r := range t.rows {
			m := txq.FindStringSubmatch(r.cells[q])
			if m == nil {
				return nil, fmt.Errorf("%s: TxQ %q of %s is not UC<n>, MC<n> or ALL<n>", CmdQueueCounters, r.cells[q], r.cells[port])
			}
			prefix := map[string]string{"UC": "queue", "MC": "mc_queue", "ALL": "all_queue"}[m[1]] + m[2] + "_"
			for c, h := range t.header {
				suffix, ok := queueCounterNames[h]
				if !ok {
					continue
				}
				v, present, err := counterValue(r.cells[c])
				if err != nil {
					return nil, fmt.Errorf("%s: %s %s %s: %w", CmdQueueCounters, r.cells[port], r.cells[q], h, err)
				}
				if present {
					pc.oldSet(r.cells[port], prefix+suffix, v)
				}
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: no table with Port and TxQ columns in the output", CmdQueueCounters)
	}
	return pc, nil
}

func oldParsePFCCounters(out string) (PortCounters, error) {
	pc := PortCounters{}
	seen := false
	for _, t := range parseTables(out) {
		if len(t.header) == 0 {
			continue
		}
		var dir string
		switch t.header[0] {
		case "Port Rx":
			dir = "rx"
		case "Port Tx":
			dir = "tx"
		default:
			continue
		}
		seen = true
		names := make([]string, len(t.header)) // each column's counter, named once per table
		for c := 1; c < len(t.header); c++ {
			names[c] = "pfc_" + dir + "_pause_prio" + strings.TrimPrefix(t.header[c], "PFC")
		}
		for _, r := range t.rows {
			port := r.cells[0]
			for c := 1; c < len(t.header); c++ {
				prio, ok := strings.CutPrefix(t.header[c], "PFC")
				if _, err := strconv.Atoi(prio); !ok || err != nil {
					return nil, fmt.Errorf("%s: unexpected column %q in the %s table", CmdPFCCounters, t.header[c], t.header[0])
				}
				v, present, err := counterValue(r.cells[c])
				if err != nil {
					return nil, fmt.Errorf("%s: %s %s: %w", CmdPFCCounters, port, t.header[c], err)
				}
				if present {
					pc.oldSet(port, names[c], v)
				}
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: no \"Port Rx\" or \"Port Tx\" table in the output", CmdPFCCounters)
	}
	return pc, nil
}

func oldParseInterfaceCounters(out string) (PortCounters, error) {
	for _, t := range parseTables(out) {
		iface, rx, tx := t.column("IFACE"), t.column("RX_OK"), t.column("TX_OK")
		if iface < 0 || rx < 0 || tx < 0 {
			continue
		}
		pc := PortCounters{}
		for _, r := range t.rows {
			port := r.cells[iface]
			for _, c := range []struct {
				col  int
				name string
			}{{rx, "rx_packets"}, {tx, "tx_packets"}} {
				v, present, err := counterValue(r.cells[c.col])
				if err != nil {
					return nil, fmt.Errorf("%s: %s %s: %w", CmdInterfaceCounters, port, t.header[c.col], err)
				}
				if present {
					pc.oldSet(port, c.name, v)
				}
			}
		}
		return pc, nil
	}
	return nil, fmt.Errorf("%s: no table with IFACE, RX_OK and TX_OK columns in the output", CmdInterfaceCounters)
}

// oldCounterSet is counterSet as it was, with the parsers' maps.
type oldCounterSet struct {
	pfc, queue, iface       PortCounters
	pfcEv, queueEv, ifaceEv topology.Evidence
}

func (cs oldCounterSet) port(name string) topology.Fact[map[string]int64] {
	ev := topology.Evidence{Command: CmdPFCCounters + "; " + CmdQueueCounters + "; " + CmdInterfaceCounters}
	m := map[string]int64{}
	var notes, errs []string
	for _, part := range []struct {
		what string
		pc   PortCounters
		ev   topology.Evidence
	}{{"PFC", cs.pfc, cs.pfcEv}, {"queue", cs.queue, cs.queueEv}, {"interface", cs.iface, cs.ifaceEv}} {
		switch {
		case part.ev.Error != "":
			errs = append(errs, part.ev.Error)
			notes = append(notes, fmt.Sprintf("%s counters unreadable", part.what))
		case len(part.pc[name]) == 0:
			errs = append(errs, fmt.Sprintf("%s: no rows for %s", part.ev.Command, name))
			notes = append(notes, fmt.Sprintf("no %s counters for %s", part.what, name))
		default:
			for k, v := range part.pc[name] {
				m[k] = v
			}
			notes = append(notes, strconv.Itoa(len(part.pc[name]))+" "+part.what+" counters")
		}
	}
	if len(m) == 0 {
		ev.Error = strings.Join(errs, "; ")
		return topology.Unknown[map[string]int64](ev)
	}
	ev.Excerpt = strings.Join(notes, "; ")
	return topology.Known(m, ev)
}

var txq = regexp.MustCompile(`^(UC|MC|ALL)([0-9]+)$`)
