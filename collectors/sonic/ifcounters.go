package sonic

import "fmt"

// ParseInterfaceCounters parses `show interfaces counters` (portstat): one row per port,
// RX_OK and TX_OK the packets received and sent (unicast plus non-unicast, SAI
// IF_IN/OUT_UCAST_PKTS + NON_UCAST_PKTS in sonic-utilities utilities_common/portstat.py).
// portstat prints no octet column (its byte counts are only rates, RX_BPS/TX_BPS), so the
// ports' traffic is counted in packets: rx_packets and tx_packets.
func ParseInterfaceCounters(out string) (PortCounters, error) {
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
					pc.set(port, c.name, v)
				}
			}
		}
		return pc, nil
	}
	return nil, fmt.Errorf("%s: no table with IFACE, RX_OK and TX_OK columns in the output", CmdInterfaceCounters)
}
