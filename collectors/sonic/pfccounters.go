package sonic

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePFCCounters parses `show pfc counters` (pfcstat): a "Port Rx" table and a "Port Tx"
// table of PFC0..PFC7 frame counts, possibly after a "Last cached time was ..." line. Counters
// are named pfc_rx_pause_prio<N> and pfc_tx_pause_prio<N>.
func ParsePFCCounters(out string) (PortCounters, error) {
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
					pc.set(port, names[c], v)
				}
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: no \"Port Rx\" or \"Port Tx\" table in the output", CmdPFCCounters)
	}
	return pc, nil
}
