package cumulus

import (
	"fmt"
	"strings"
)

// tableOf finds the table a per-port command prints: in a titled section (interface form) or
// as the whole output (the `... traffic-class` / `... switch-priority` sub-command form).
func tableOf(doc nvDoc, title string) (nvTable, bool) {
	if s, ok := doc.section(title); ok {
		return s.table, true
	}
	if doc.lead != nil {
		return *doc.lead, true
	}
	return nvTable{}, false
}

// ParseEgressQueueMapping parses `nv show interface <if> qos egress-queue-mapping`: switch
// priority -> traffic class (the egress queue).
func ParseEgressQueueMapping(out string) (map[int]int, string, error) {
	t, ok := tableOf(parseNV(out), "SP->TC")
	sp, tc := t.column("switch-priority", "switch-prio"), t.column("traffic-class")
	if !ok || sp < 0 || tc < 0 || len(t.rows) == 0 {
		return nil, "", fmt.Errorf("%s: no switch-priority to traffic-class table in the output", TmplEgressQueueMapping)
	}
	m := map[int]int{}
	var ex []string
	for _, r := range t.rows {
		a, err1 := parseNumber(r.cells[sp])
		b, err2 := parseNumber(r.cells[tc])
		if err1 != nil || err2 != nil || a > 7 || b > 15 {
			return nil, "", fmt.Errorf("%s: row %q", TmplEgressQueueMapping, strings.TrimSpace(r.line))
		}
		m[a] = b
		ex = append(ex, fmt.Sprintf("%d->%d", a, b))
	}
	return m, "SP->TC: " + strings.Join(ex, " "), nil
}

// ParseEgressScheduler parses `nv show interface <if> qos egress-scheduler`: the mode of each
// traffic class ("strict" or "dwrr").
func ParseEgressScheduler(out string) (map[int]string, string, error) {
	t, ok := tableOf(parseNV(out), "TC->DWRR")
	tc, mode := t.column("traffic-class"), t.column("mode")
	if !ok || tc < 0 || mode < 0 || len(t.rows) == 0 {
		return nil, "", fmt.Errorf("%s: no traffic-class and mode table in the output", TmplEgressScheduler)
	}
	bw := t.column("bw-percent")
	m := map[int]string{}
	var ex []string
	for _, r := range t.rows {
		q, err := parseNumber(r.cells[tc])
		if err != nil || q > 15 {
			return nil, "", fmt.Errorf("%s: row %q", TmplEgressScheduler, strings.TrimSpace(r.line))
		}
		s, err := normalizeScheduler(r.cells[mode])
		if err != nil {
			return nil, "", fmt.Errorf("%s: traffic-class %d: %w", TmplEgressScheduler, q, err)
		}
		m[q] = s
		e := fmt.Sprintf("%d %s", q, r.cells[mode])
		if bw >= 0 && r.cells[bw] != "" {
			e += " " + r.cells[bw] + "%"
		}
		ex = append(ex, e)
	}
	return m, "TC mode: " + strings.Join(ex, ", "), nil
}
