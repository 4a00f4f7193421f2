package sonic

import (
	"fmt"
	"regexp"
)

var txq = regexp.MustCompile(`^(UC|MC|ALL)([0-9]+)$`)

// queueCounterNames maps the columns of `show queue counters` to counter name suffixes.
var queueCounterNames = map[string]string{
	"Counter/pkts": "tx_packets", "Counter/bytes": "tx_bytes",
	"Drop/pkts": "drops", "Drop/bytes": "drop_bytes",
}

// ParseQueueCounters parses `show queue counters` (queuestat): per namespace a "For namespace
// ..." line and a table of Port, TxQ (UC<n>, MC<n>, ALL<n>) and packet/byte/drop counts.
// Unicast queue n gives queue<n>_tx_packets, queue<n>_tx_bytes, queue<n>_drops and
// queue<n>_drop_bytes; multicast and ALL queues get mc_queue<n>_ and all_queue<n>_.
func ParseQueueCounters(out string) (PortCounters, error) {
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
					pc.set(r.cells[port], prefix+suffix, v)
				}
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: no table with Port and TxQ columns in the output", CmdQueueCounters)
	}
	return pc, nil
}
