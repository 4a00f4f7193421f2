package cumulus

import (
	"fmt"
	"strings"
)

// ParseCongestionControl parses `nv show interface <if> qos congestion-control`: the traffic
// classes with an ECN row, and whether ECN marking is enabled on each. A class without a row
// does not mark.
func ParseCongestionControl(out string) (map[int]bool, string, error) {
	t, ok := tableOf(parseNV(out), "ECN configuration")
	tc, ecn := t.column("traffic-class"), t.column("ECN")
	if !ok || tc < 0 || ecn < 0 {
		return nil, "", fmt.Errorf("%s: no ECN configuration table in the output", TmplCongestion)
	}
	m := map[int]bool{}
	var ex []string
	for _, r := range t.rows {
		q, err := parseNumber(r.cells[tc])
		if err != nil || q > 15 {
			return nil, "", fmt.Errorf("%s: row %q", TmplCongestion, strings.TrimSpace(r.line))
		}
		on, err := parseBool(r.cells[ecn])
		if err != nil {
			return nil, "", fmt.Errorf("%s: traffic-class %d ECN: %w", TmplCongestion, q, err)
		}
		m[q] = on
		ex = append(ex, strings.TrimRight(r.line, " "))
	}
	if len(ex) == 0 {
		return m, "no ECN configuration rows", nil
	}
	return m, strings.Join(ex, "\n"), nil
}
