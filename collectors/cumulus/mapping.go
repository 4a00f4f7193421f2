package cumulus

import (
	"fmt"
	"strings"
)

// Mapping is `nv show interface <if> qos mapping`: the trust setting, the port default switch
// priority and the PCP and DSCP to switch-priority tables.
type Mapping struct {
	Trust         string // normalized: dscp, pcp, both, none
	PortDefaultSP int    // -1 when not shown
	DSCPToSP      map[int]int
	PCPToSP       map[int]int
	Excerpt       string
}

// ParseMapping parses `nv show interface <if> qos mapping`. The DSCP section may be empty
// (trust l2 ports show none).
func ParseMapping(out string) (Mapping, error) {
	doc := parseNV(out)
	m := Mapping{PortDefaultSP: -1, DSCPToSP: map[int]int{}, PCPToSP: map[int]int{}}
	t, ok := doc.value("trust")
	if !ok {
		return Mapping{}, fmt.Errorf("%s: no trust row in the output", TmplMapping)
	}
	var err error
	if m.Trust, err = NormalizeTrust(t); err != nil {
		return Mapping{}, fmt.Errorf("%s: %w", TmplMapping, err)
	}
	ex := []string{doc.line("trust")}
	if v, ok := doc.value("port-default-sp"); ok && v != "" {
		if m.PortDefaultSP, err = parseNumber(v); err != nil || m.PortDefaultSP > 7 {
			return Mapping{}, fmt.Errorf("%s: port-default-sp %q", TmplMapping, v)
		}
		ex = append(ex, doc.line("port-default-sp"))
	}
	for _, s := range []struct {
		title, col string
		dst        map[int]int
		max        int
	}{{"DSCP->SP", "dscp", m.DSCPToSP, 63}, {"PCP->SP", "802.1p", m.PCPToSP, 7}} {
		sec, ok := doc.section(s.title)
		if !ok {
			continue
		}
		if len(sec.table.rows) == 0 {
			ex = append(ex, sec.title+": (no rows)")
			continue
		}
		from, to := sec.table.column(s.col, "pcp"), sec.table.column("switch-priority", "switch-prio")
		if from < 0 || to < 0 {
			return Mapping{}, fmt.Errorf("%s: section %q has no %s and switch-priority columns", TmplMapping, sec.title, s.col)
		}
		var rows []string
		for _, r := range sec.table.rows {
			a, err1 := parseNumber(r.cells[from])
			b, err2 := parseNumber(r.cells[to])
			if err1 != nil || err2 != nil || a > s.max || b > 7 {
				return Mapping{}, fmt.Errorf("%s: %s: row %q", TmplMapping, sec.title, strings.TrimSpace(r.line))
			}
			s.dst[a] = b
			rows = append(rows, fmt.Sprintf("%d->%d", a, b))
		}
		ex = append(ex, sec.title+": "+strings.Join(rows, " "))
	}
	m.Excerpt = joinLines(ex...)
	return m, nil
}
