package cumulus

import (
	"fmt"
	"strings"
)

// RoCE is the RoCE profile NVUE applied, switch-wide (`nv show qos roce`) or on one port
// (`nv show interface <if> qos roce status`, which lists only the roce and cnp rows of the
// maps).
type RoCE struct {
	Enabled       bool   // `enable on` or (CL 5.15+) `state enabled`; a port status is Enabled
	Mode          string // lossless, lossy, lossless-single-ipool, lossy-multi-tc
	Trust         string // normalized ("both" for pcp,dscp); "" when not shown
	PFCPriorities []int
	PFCRX, PFCTX  bool
	ECN           bool  // congestion-mode names ECN
	ECNTCs        []int // enabled-tc
	DSCPToSP      map[int]int
	SPToTC        map[int]int
	TCScheduler   map[int]string
	Pools         []Pool
	// Excerpts are the raw lines each part came from, for evidence.
	Excerpts map[string]string
}

// Pool is one row of the RoCE pool table.
type Pool struct {
	Name             string
	SwitchPriorities []int
	TrafficClasses   []int
}

// Excerpt keys of RoCE.Excerpts.
const (
	ExMode    = "mode"
	ExTrust   = "trust"
	ExPFC     = "pfc"
	ExECN     = "ecn"
	ExPrioMap = "prio-map"
	ExTCMap   = "tc-map"
	ExPools   = "pools"
)

// ParseRoCE parses `nv show qos roce`. Disabled RoCE is just `enable off`; enabled RoCE must
// show its mode and maps.
func ParseRoCE(out string) (*RoCE, error) {
	doc := parseNV(out)
	en, ok := doc.value("enable")
	if !ok {
		en, ok = doc.value("state")
	}
	if !ok {
		return nil, fmt.Errorf("%s: no enable or state row in the output", CmdRoCE)
	}
	on, err := parseBool(en)
	if err != nil {
		return nil, fmt.Errorf("%s: enable: %w", CmdRoCE, err)
	}
	if !on {
		return &RoCE{Excerpts: map[string]string{ExMode: firstLine(doc.line("enable"), doc.line("state"))}}, nil
	}
	r, err := parseRoCEDoc(doc, CmdRoCE)
	if err != nil {
		return nil, err
	}
	r.Enabled = true
	r.Excerpts[ExMode] = firstLine(doc.line("enable"), doc.line("state")) + "\n" + doc.line("mode")
	return r, nil
}

// ParseRoCEStatus parses `nv show interface <if> qos roce status`.
func ParseRoCEStatus(out string) (*RoCE, error) {
	r, err := parseRoCEDoc(parseNV(out), TmplRoCEStatus)
	if err != nil {
		return nil, err
	}
	r.Enabled = true
	return r, nil
}

// parseRoCEDoc reads what the switch-wide and port outputs share. Row order differs between
// releases (5.15 puts pfc first), so nothing here depends on it.
func parseRoCEDoc(doc nvDoc, cmd string) (*RoCE, error) {
	r := &RoCE{DSCPToSP: map[int]int{}, SPToTC: map[int]int{}, TCScheduler: map[int]string{}, Excerpts: map[string]string{}}
	mode, ok := doc.value("mode")
	if !ok || mode == "" {
		return nil, fmt.Errorf("%s: no RoCE mode row in the output", cmd)
	}
	r.Mode = mode
	r.Excerpts[ExMode] = doc.line("mode")

	if t, ok := doc.value("trust.trust-mode"); ok && t != "" {
		norm, err := NormalizeTrust(t)
		if err != nil {
			return nil, fmt.Errorf("%s: trust-mode: %w", cmd, err)
		}
		r.Trust = norm
		r.Excerpts[ExTrust] = doc.line("trust.trust-mode")
	}

	if err := r.readPFC(doc, cmd); err != nil {
		return nil, err
	}
	if cm, ok := doc.value("congestion-control.congestion-mode"); ok {
		r.ECN = strings.Contains(strings.ToLower(cm), "ecn")
		tcs, _ := doc.value("congestion-control.enabled-tc")
		var err error
		if r.ECNTCs, err = parseList(tcs, 15); err != nil {
			return nil, fmt.Errorf("%s: enabled-tc: %w", cmd, err)
		}
		r.Excerpts[ExECN] = joinLines(doc.line("congestion-control.congestion-mode"), doc.line("congestion-control.enabled-tc"))
	}
	if err := r.readMaps(doc, cmd); err != nil {
		return nil, err
	}
	return r, r.readPools(doc, cmd)
}

func (r *RoCE) readPFC(doc nvDoc, cmd string) error {
	p, ok := doc.value("pfc.pfc-priority")
	if !ok {
		if strings.HasPrefix(r.Mode, "lossless") {
			return fmt.Errorf("%s: mode %s but no pfc-priority row", cmd, r.Mode)
		}
		r.PFCPriorities = []int{}
		return nil
	}
	var err error
	if r.PFCPriorities, err = parseList(p, 7); err != nil {
		return fmt.Errorf("%s: pfc-priority: %w", cmd, err)
	}
	r.Excerpts[ExPFC] = joinLines(doc.line("pfc.pfc-priority"), doc.line("pfc.rx-enabled"), doc.line("pfc.tx-enabled"))
	if len(r.PFCPriorities) == 0 {
		return nil
	}
	for _, d := range []struct {
		key string
		dst *bool
	}{{"pfc.rx-enabled", &r.PFCRX}, {"pfc.tx-enabled", &r.PFCTX}} {
		v, ok := doc.value(d.key)
		if !ok {
			return fmt.Errorf("%s: pfc-priority %s but no %s row", cmd, p, strings.TrimPrefix(d.key, "pfc."))
		}
		b, err := parseBool(v)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", cmd, d.key, err)
		}
		*d.dst = b
	}
	return nil
}

// readMaps reads the PCP/DSCP->SP and SP->TC/ETS sections.
func (r *RoCE) readMaps(doc nvDoc, cmd string) error {
	prio, okP := doc.section("DSCP->SP")
	tc, okT := doc.section("SP->TC")
	if !okP || !okT {
		return fmt.Errorf("%s: no RoCE PCP/DSCP->SP or SP->TC section in the output", cmd)
	}
	dscp, sp := prio.table.column("dscp"), prio.table.column("switch-prio", "switch-priority")
	if dscp < 0 || sp < 0 {
		return fmt.Errorf("%s: section %q has no dscp and switch-prio columns", cmd, prio.title)
	}
	var ex []string
	for _, row := range prio.table.rows {
		s, err := parseNumber(row.cells[sp])
		if err != nil || s > 7 {
			return fmt.Errorf("%s: %s: switch-prio %q", cmd, prio.title, row.cells[sp])
		}
		ds, err := parseList(row.cells[dscp], 63)
		if err != nil {
			return fmt.Errorf("%s: %s: dscp: %w", cmd, prio.title, err)
		}
		for _, d := range ds {
			r.DSCPToSP[d] = s
		}
		ex = append(ex, strings.TrimRight(row.line, " "))
	}
	r.Excerpts[ExPrioMap] = strings.Join(ex, "\n")

	sp2, tcc, w := tc.table.column("switch-prio", "switch-priority"), tc.table.column("traffic-class"), tc.table.column("scheduler-weight")
	if sp2 < 0 || tcc < 0 || w < 0 {
		return fmt.Errorf("%s: section %q has no switch-prio, traffic-class and scheduler-weight columns", cmd, tc.title)
	}
	ex = nil
	for _, row := range tc.table.rows {
		s, err1 := parseNumber(row.cells[sp2])
		t, err2 := parseNumber(row.cells[tcc])
		if err1 != nil || err2 != nil || s > 7 || t > 15 {
			return fmt.Errorf("%s: %s: row %q", cmd, tc.title, strings.TrimSpace(row.line))
		}
		sched, err := normalizeScheduler(row.cells[w])
		if err != nil {
			return fmt.Errorf("%s: %s: %w", cmd, tc.title, err)
		}
		r.SPToTC[s] = t
		r.TCScheduler[t] = sched
		ex = append(ex, strings.TrimRight(row.line, " "))
	}
	r.Excerpts[ExTCMap] = strings.Join(ex, "\n")
	return nil
}

// readPools reads "RoCE pool config" (switch-wide) or "RoCE Pool Status" (port), when shown.
func (r *RoCE) readPools(doc nvDoc, cmd string) error {
	s, ok := doc.section("RoCE pool")
	if !ok {
		return nil
	}
	name, sps, tcs := s.table.column("name"), s.table.column("switch-priorities"), s.table.column("traffic-class")
	if name < 0 || sps < 0 || tcs < 0 {
		return fmt.Errorf("%s: section %q has no name, switch-priorities and traffic-class columns", cmd, s.title)
	}
	var ex []string
	for _, row := range s.table.rows {
		p := Pool{Name: row.cells[name]}
		var err error
		if p.SwitchPriorities, err = parseList(row.cells[sps], 7); err != nil {
			return fmt.Errorf("%s: pool %s: %w", cmd, p.Name, err)
		}
		if p.TrafficClasses, err = parseList(row.cells[tcs], 15); err != nil {
			return fmt.Errorf("%s: pool %s: %w", cmd, p.Name, err)
		}
		r.Pools = append(r.Pools, p)
		ex = append(ex, strings.TrimRight(row.line, " "))
	}
	r.Excerpts[ExPools] = strings.Join(ex, "\n")
	return nil
}

// joinLines joins the lines that are not empty, one per line: one allocation, none for a
// single line.
func joinLines(lines ...string) string {
	n, count, last := 0, 0, ""
	for _, l := range lines {
		if l != "" {
			n, count, last = n+len(l), count+1, l
		}
	}
	if count <= 1 {
		return last
	}
	var b strings.Builder
	b.Grow(n + count - 1)
	for _, l := range lines {
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}

func firstLine(lines ...string) string {
	for _, l := range lines {
		if l != "" {
			return l
		}
	}
	return ""
}
