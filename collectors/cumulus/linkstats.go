package cumulus

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// TmplLinkStats reads a port's traffic counters: the link stats object of the NVUE API
// (/interface/<if>/link/stats: in-bytes, in-pkts, out-bytes, out-pkts, ...). A transfer's
// ECMP member is told by which uplinks carried it.
const TmplLinkStats = "nv show interface {if} link stats"

// linkStatsKeys map NVUE's link stats keys to the normalized counter names.
var linkStatsKeys = [...]struct{ nvue, name string }{
	{"in-bytes", "rx_bytes"}, {"out-bytes", "tx_bytes"}, {"in-pkts", "rx_packets"}, {"out-pkts", "tx_packets"},
}

// ParseLinkStatsJSON reads `nv show interface <if> link stats -o json`: raw numbers.
func ParseLinkStatsJSON(out string) (map[string]int64, error) {
	if m, ok := linkStatsScan(out); ok {
		return m, nil
	}
	return linkStatsDecode(out)
}

// linkStatsScan is ParseLinkStatsJSON's fast path, a scan of the flat object in place
// (encoding/json's map of json.Number was ~8 us and 34 allocations a port). It declines
// whatever it is not sure to read as the decoder does: a member that is not a plain number
// (a string, even of digits, or anything nested), a wanted count that is not plain digits,
// none of the wanted counts.
func linkStatsScan(out string) (map[string]int64, bool) {
	lc, ok := linkStatsScanCounts(out)
	if !ok {
		return nil, false
	}
	return lc.counterMap(), true
}

// linkCounts are a port's traffic counters: the counts of linkStatsKeys that were present,
// or a map of them.
type linkCounts struct {
	vals [len(linkStatsKeys)]int64
	got  uint8 // by index in linkStatsKeys
	m    map[string]int64
}

func (lc *linkCounts) len() int {
	if lc.m != nil {
		return len(lc.m)
	}
	n := 0
	for i := range linkStatsKeys {
		n += int(lc.got >> i & 1)
	}
	return n
}

// addTo sets the counters in m.
func (lc *linkCounts) addTo(m map[string]int64) {
	for k, v := range lc.m {
		m[k] = v
	}
	for i, k := range linkStatsKeys {
		if lc.got&(1<<i) != 0 {
			m[k.name] = lc.vals[i]
		}
	}
}

// counterMap is the counters as a map of their own.
func (lc *linkCounts) counterMap() map[string]int64 {
	if lc.m != nil {
		return lc.m
	}
	m := map[string]int64{}
	lc.addTo(m)
	return m
}

// linkCountsJSON is ParseLinkStatsJSON without a map when the scan reads the output: a port
// adds the counts to its QoS counters.
func linkCountsJSON(out string) (linkCounts, error) {
	if lc, ok := linkStatsScanCounts(out); ok {
		return lc, nil
	}
	m, err := linkStatsDecode(out)
	return linkCounts{m: m}, err
}

// linkCountsText is ParseLinkStats as linkCounts.
func linkCountsText(out string) (linkCounts, error) {
	m, err := ParseLinkStats(out)
	return linkCounts{m: m}, err
}

// linkStatsScanCounts is linkStatsScan's reading.
func linkStatsScanCounts(out string) (linkCounts, bool) {
	sc := jsonscan.New(out)
	var lc linkCounts
	ok := sc.Object(func(key string) bool {
		for i := range linkStatsKeys {
			if linkStatsKeys[i].nvue == key {
				if sc.Peek() == '"' {
					return false
				}
				n, ok := scanCount(sc)
				lc.vals[i], lc.got = n, lc.got|1<<i // a repeated key: the last one, as the decoder keeps
				return ok
			}
		}
		_, ok := sc.Number()
		return ok
	})
	if !ok || !sc.End() || lc.got == 0 {
		return linkCounts{}, false
	}
	return lc, true
}

// linkStatsDecode is ParseLinkStatsJSON by encoding/json: the reference of the scan, and
// what reads (or rejects, with its error) whatever the scan declines.
func linkStatsDecode(out string) (map[string]int64, error) {
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
