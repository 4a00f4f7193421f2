package sonic

import "fmt"

// ParseInterfaceCounters parses `show interfaces counters` (portstat): one row per port,
// RX_OK and TX_OK the packets received and sent (unicast plus non-unicast, SAI
// IF_IN/OUT_UCAST_PKTS + NON_UCAST_PKTS in sonic-utilities utilities_common/portstat.py).
// portstat prints no octet column (its byte counts are only rates, RX_BPS/TX_BPS), so the
// ports' traffic is counted in packets: rx_packets and tx_packets.
func ParseInterfaceCounters(out string) (PortCounters, error) {
	cr, err := scanInterfaceCounters(out)
	if err != nil {
		return nil, err
	}
	return cr.portCounters(), nil
}

func scanInterfaceCounters(out string) (*counterRows, error) {
	var cr *counterRows
	err := scanTables(out, func(header []string) (func([]string, string) error, error) {
		if cr != nil { // the first table with the columns is the one
			return nil, errStopTables
		}
		iface, rx, tx := columnOf(header, "IFACE"), columnOf(header, "RX_OK"), columnOf(header, "TX_OK")
		if iface < 0 || rx < 0 || tx < 0 {
			return nil, nil
		}
		cr = newCounterRows(len(out) / 64) // two counters of a 140-byte row
		cols := [...]struct {
			col  int
			name int32
		}{{rx, cr.name("rx_packets")}, {tx, cr.name("tx_packets")}}
		return func(cells []string, _ string) error {
			port := cells[iface]
			for _, c := range cols {
				v, present, err := counterValue(cells[c.col])
				if err != nil {
					return fmt.Errorf("%s: %s %s: %w", CmdInterfaceCounters, port, header[c.col], err)
				}
				if present {
					cr.add(port, c.name, v)
				}
			}
			return nil
		}, nil
	})
	if err != nil {
		return nil, err
	}
	if cr == nil {
		return nil, fmt.Errorf("%s: no table with IFACE, RX_OK and TX_OK columns in the output", CmdInterfaceCounters)
	}
	return cr.group(), nil
}
