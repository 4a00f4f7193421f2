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
	cr, err := scanPFCCounters(out)
	if err != nil {
		return nil, err
	}
	return cr.portCounters(), nil
}

func scanPFCCounters(out string) (*counterRows, error) {
	cr := newCounterRows(len(out) / 8) // a counter cell is some 8 bytes
	seen := false
	err := scanTables(out, func(header []string) (func([]string, string) error, error) {
		if len(header) == 0 {
			return nil, nil
		}
		var dir string
		switch header[0] {
		case "Port Rx":
			dir = "rx"
		case "Port Tx":
			dir = "tx"
		default:
			return nil, nil
		}
		seen = true
		names := make([]int32, len(header)) // each column's counter, named once per table
		valid := make([]bool, len(header))
		for c := 1; c < len(header); c++ {
			names[c] = cr.name("pfc_" + dir + "_pause_prio" + strings.TrimPrefix(header[c], "PFC"))
			prio, ok := strings.CutPrefix(header[c], "PFC")
			_, err := strconv.Atoi(prio)
			valid[c] = ok && err == nil
		}
		return func(cells []string, _ string) error {
			port := cells[0]
			for c := 1; c < len(header); c++ {
				if !valid[c] {
					return fmt.Errorf("%s: unexpected column %q in the %s table", CmdPFCCounters, header[c], header[0])
				}
				v, present, err := counterValue(cells[c])
				if err != nil {
					return fmt.Errorf("%s: %s %s: %w", CmdPFCCounters, port, header[c], err)
				}
				if present {
					cr.add(port, names[c], v)
				}
			}
			return nil
		}, nil
	})
	if err != nil {
		return nil, err
	}
	if !seen {
		return nil, fmt.Errorf("%s: no \"Port Rx\" or \"Port Tx\" table in the output", CmdPFCCounters)
	}
	return cr.group(), nil
}
