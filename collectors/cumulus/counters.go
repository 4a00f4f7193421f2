package cumulus

import (
	"fmt"
	"strings"
)

// counterColumns maps the tables of `nv show interface <if> counters qos` to counter names:
// the key column and, per value column, a name pattern (%d is the key).
var counterColumns = []struct {
	title, key string
	names      map[string]string
}{
	{"Ingress Buffer Statistics", "priority-group", map[string]string{
		"rx-frames": "pg%d_rx_frames", "rx-buffer-discards": "pg%d_rx_discard_bytes",
		"rx-shared-buffer-discards": "pg%d_rx_shared_discard_bytes"}},
	{"Egress Queue Statistics", "traffic-class", map[string]string{
		"tx-frames": "queue%d_tx_packets", "tx-bytes": "queue%d_tx_bytes",
		"tx-uc-buffer-discards": "queue%d_drop_bytes", "wred-discards": "queue%d_wred_drops"}},
	{"PFC Statistics", "switch-priority", map[string]string{
		"rx-pause-frames": "pfc_rx_pause_prio%d", "rx-pause-duration": "pfc_rx_pause_duration_prio%d",
		"tx-pause-frames": "pfc_tx_pause_prio%d", "tx-pause-duration": "pfc_tx_pause_duration_prio%d"}},
}

// ParseCountersQoS parses `nv show interface <if> counters qos` (CL 5.5+). Byte values are
// humanised by NVUE ("1.43 MB") and so approximate; "n/a" cells are left out. The port table
// gives <counter>_rx / <counter>_tx ("ecn_marked_packets_tx").
func ParseCountersQoS(out string) (map[string]int64, error) {
	doc := parseNV(out)
	m := map[string]int64{}
	for _, spec := range counterColumns {
		s, ok := doc.section(spec.title)
		if !ok {
			continue
		}
		key := s.table.column(spec.key)
		if key < 0 {
			return nil, fmt.Errorf("%s: section %q has no %s column", TmplCounters, s.title, spec.key)
		}
		for _, r := range s.table.rows {
			k, err := parseNumber(r.cells[key])
			if err != nil {
				return nil, fmt.Errorf("%s: %s: row %q", TmplCounters, s.title, strings.TrimSpace(r.line))
			}
			for c, h := range s.table.header {
				pattern, ok := spec.names[h]
				if !ok {
					continue
				}
				if err := setCounter(m, fmt.Sprintf(pattern, k), r.cells[c]); err != nil {
					return nil, fmt.Errorf("%s: %s %d %s: %w", TmplCounters, s.title, k, h, err)
				}
			}
		}
	}
	if s, ok := doc.section("Port Statistics"); ok {
		name, rx, tx := s.table.column("Counter"), s.table.column("Receive"), s.table.column("Transmit")
		if name < 0 || rx < 0 || tx < 0 {
			return nil, fmt.Errorf("%s: section %q has no Counter, Receive and Transmit columns", TmplCounters, s.title)
		}
		for _, r := range s.table.rows {
			base := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(r.cells[name])), "-", "_")
			base = strings.ReplaceAll(base, " ", "_")
			for suffix, c := range map[string]int{"_rx": rx, "_tx": tx} {
				if err := setCounter(m, base+suffix, r.cells[c]); err != nil {
					return nil, fmt.Errorf("%s: %s %s: %w", TmplCounters, s.title, r.cells[name], err)
				}
			}
		}
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no counter tables in the output", TmplCounters)
	}
	return m, nil
}

func setCounter(m map[string]int64, name, cell string) error {
	cell = strings.TrimSpace(cell)
	if cell == "" || strings.EqualFold(cell, "n/a") {
		return nil
	}
	v, err := parseBytes(cell)
	if err != nil {
		return err
	}
	m[name] = v
	return nil
}
