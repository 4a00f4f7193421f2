package sonic

import (
	"fmt"
	"slices"
)

// queueCounterNames maps the columns of `show queue counters` to counter name suffixes.
var queueCounterNames = map[string]string{
	"Counter/pkts": "tx_packets", "Counter/bytes": "tx_bytes",
	"Drop/pkts": "drops", "Drop/bytes": "drop_bytes",
}

// queuePrefixes name the counters of each TxQ kind.
var queuePrefixes = [...]struct{ kind, prefix string }{{"UC", "queue"}, {"MC", "mc_queue"}, {"ALL", "all_queue"}}

// ParseQueueCounters parses `show queue counters` (queuestat): per namespace a "For namespace
// ..." line and a table of Port, TxQ (UC<n>, MC<n>, ALL<n>) and packet/byte/drop counts.
// Unicast queue n gives queue<n>_tx_packets, queue<n>_tx_bytes, queue<n>_drops and
// queue<n>_drop_bytes; multicast and ALL queues get mc_queue<n>_ and all_queue<n>_.
func ParseQueueCounters(out string) (PortCounters, error) {
	cr, err := scanQueueCounters(out)
	if err != nil {
		return nil, err
	}
	return cr.portCounters(), nil
}

// txqPrefix reads a TxQ cell, UC<n>, MC<n> or ALL<n> (n ASCII digits), into its counters'
// prefix ("queue3_"), or "" when it is none of these.
func txqPrefix(cell string) string {
	for _, p := range queuePrefixes {
		if len(cell) > len(p.kind) && cell[:len(p.kind)] == p.kind {
			n := cell[len(p.kind):]
			for i := 0; i < len(n); i++ {
				if n[i] < '0' || n[i] > '9' {
					return ""
				}
			}
			return p.prefix + n + "_"
		}
	}
	return ""
}

func scanQueueCounters(out string) (*counterRows, error) {
	cr := newCounterRows(len(out) / 20) // a row of four counters is some 80 bytes
	seen := false
	// names[TxQ][column] is a counter's name, made once per queue and column, not per row
	names, named := map[string][]int32{}, []string(nil)
	err := scanTables(out, func(header []string) (func([]string, string) error, error) {
		port, q := columnOf(header, "Port"), columnOf(header, "TxQ")
		if port < 0 || q < 0 {
			return nil, nil
		}
		seen = true
		suffixes := make([]string, len(header))
		for c, h := range header {
			suffixes[c] = queueCounterNames[h]
		}
		if !slices.Equal(suffixes, named) { // a table with its columns in another order
			clear(names)
			named = suffixes
		}
		return func(cells []string, _ string) error {
			qn, ok := names[cells[q]]
			if !ok {
				prefix := txqPrefix(cells[q])
				if prefix == "" {
					return fmt.Errorf("%s: TxQ %q of %s is not UC<n>, MC<n> or ALL<n>", CmdQueueCounters, cells[q], cells[port])
				}
				qn = make([]int32, len(header))
				for c, suffix := range suffixes {
					if suffix != "" {
						qn[c] = cr.name(prefix + suffix)
					}
				}
				names[cells[q]] = qn
			}
			for c, suffix := range suffixes {
				if suffix == "" {
					continue
				}
				v, present, err := counterValue(cells[c])
				if err != nil {
					return fmt.Errorf("%s: %s %s %s: %w", CmdQueueCounters, cells[port], cells[q], header[c], err)
				}
				if present {
					cr.add(cells[port], qn[c], v)
				}
			}
			return nil
		}, nil
	})
	if err != nil {
		return nil, err
	}
	if !seen {
		return nil, fmt.Errorf("%s: no table with Port and TxQ columns in the output", CmdQueueCounters)
	}
	return cr.group(), nil
}
