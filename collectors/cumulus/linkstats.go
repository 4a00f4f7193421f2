package cumulus

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// TmplLinkStats reads a port's traffic counters: the link stats object of the NVUE API
// (/interface/<if>/link/stats: in-bytes, in-pkts, out-bytes, out-pkts, ...). A transfer's
// ECMP member is told by which uplinks carried it.
const TmplLinkStats = "nv show interface {if} link stats"

// linkStatsKeys map NVUE's link stats keys to the normalized counter names.
var linkStatsKeys = []struct{ nvue, name string }{
	{"in-bytes", "rx_bytes"}, {"out-bytes", "tx_bytes"}, {"in-pkts", "rx_packets"}, {"out-pkts", "tx_packets"},
}

// ParseLinkStatsJSON reads `nv show interface <if> link stats -o json`: raw numbers.
func ParseLinkStatsJSON(out string) (map[string]int64, error) {
	var doc map[string]json.Number
	if err := decode(TmplLinkStats, out, &doc); err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for _, k := range linkStatsKeys {
		if v, ok := doc[k.nvue]; ok {
			n, err := strconv.ParseInt(v.String(), 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s: %s %q is not a count", jsonCmd(TmplLinkStats), k.nvue, v)
			}
			m[k.name] = n
		}
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no in-bytes, out-bytes, in-pkts or out-pkts in the output", jsonCmd(TmplLinkStats))
	}
	return m, nil
}

// ParseLinkStats reads the text form, whose byte counts NVUE humanises ("280.15 MB"): they
// are read back to the nearest unit step, close enough to tell which port carried gigabytes.
func ParseLinkStats(out string) (map[string]int64, error) {
	doc := parseNV(out)
	m := map[string]int64{}
	for _, k := range linkStatsKeys {
		v, ok := doc.value(k.nvue)
		if !ok {
			continue
		}
		n, err := parseBytes(v) // a bare packet count reads as a number too
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", TmplLinkStats, k.nvue, err)
		}
		m[k.name] = n
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no in-bytes, out-bytes, in-pkts or out-pkts rows in the output", TmplLinkStats)
	}
	return m, nil
}
