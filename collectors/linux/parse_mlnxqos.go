package linux

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// The row matchers are by hand: as regexps (prio:(\d+) dscp:([\d,]*)$, ^tc: (\d+) ratelimit:
// ([^,]+), tsa: (\w+), ^priority:\s+(\d+)$, kept in the tests as their reference) they were
// a fifth of an 8-rail host's allocations.

// digitsPrefix is the length of the run of ASCII digits s starts with.
func digitsPrefix(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// matchDSCPLine matches `prio:N dscp:D,D,...` whole: N and the D,D,... list.
func matchDSCPLine(line string) (prio, list string, ok bool) {
	rest, ok := strings.CutPrefix(line, "prio:")
	n := digitsPrefix(rest)
	if !ok || n == 0 {
		return "", "", false
	}
	prio = rest[:n]
	list, ok = strings.CutPrefix(rest[n:], " dscp:")
	if !ok || strings.Trim(list, "0123456789,") != "" {
		return "", "", false
	}
	return prio, list, true
}

// matchTCLine matches a line starting `tc: N ratelimit: R, tsa: TSA`: N and TSA (a run of
// word characters); R is everything up to the first comma.
func matchTCLine(line string) (tc, tsa string, ok bool) {
	rest, ok := strings.CutPrefix(line, "tc: ")
	n := digitsPrefix(rest)
	if !ok || n == 0 {
		return "", "", false
	}
	tc = rest[:n]
	rest, ok = strings.CutPrefix(rest[n:], " ratelimit: ")
	comma := strings.IndexByte(rest, ',')
	if !ok || comma <= 0 {
		return "", "", false
	}
	rest, ok = strings.CutPrefix(rest[comma:], ", tsa: ")
	w := 0
	for w < len(rest) && (rest[w] == '_' || rest[w] >= '0' && rest[w] <= '9' || rest[w] >= 'a' && rest[w] <= 'z' || rest[w] >= 'A' && rest[w] <= 'Z') {
		w++
	}
	if !ok || w == 0 {
		return "", "", false
	}
	return tc, rest[:w], true
}

// matchTCPrio matches `priority:` then white space (\s: tab, newline, form feed, return,
// space) and N to the end of the line: N.
func matchTCPrio(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "priority:")
	sp := 0
	for sp < len(rest) && strings.IndexByte("\t\n\f\r ", rest[sp]) >= 0 {
		sp++
	}
	n := digitsPrefix(rest[sp:])
	if !ok || sp == 0 || n == 0 || sp+n != len(rest) {
		return "", false
	}
	return rest[sp:], true
}

// ParseMlnxQos reads `mlnx_qos -i IF` in every layout mlnx-tools printed since 2017 (its git
// history): with or without the DCBX mode / trust / buffer lines, wrapped dscp2prio rows,
// the `default priority:` block and lldpad/unsupported warnings. Tabs are not relied on
// (copies often expand them). DCBXMode is "" when the DCBX line is absent; Trust is "" when
// the trust line is absent (mlnx_qos before OFED 4.2, or trust unsupported).
func ParseMlnxQos(text string) (topology.HostQoS, error) {
	q, _, err := readMlnxQos(text, false)
	return q, err
}

// qosExcerpts are the excerpts of an mlnx_qos output: qos (the lines qosKept keeps) and
// dcbx (the DCBX mode line).
type qosExcerpts struct{ qos, dcbx string }

// readMlnxQos is ParseMlnxQos and, when cut is set, its excerpts, from the same pass: cutting
// them in two more passes over the lines the parse had split was a third of a port's QoS
// reading. The rows are split without strings.Fields' slices.
func readMlnxQos(text string, cut bool) (topology.HostQoS, qosExcerpts, error) {
	q := topology.HostQoS{Tool: "mlnx_qos", TCTSA: map[int]string{}, PrioTC: map[int]int{}}
	dscp := make(map[int]int, 64) // all 64 code points are mapped: growing to them was 11% of a host's allocation
	section, curTC := "", -1
	sawPFC, sawEnabled := false, false
	var qosBuf [32]string
	qos, dcbx := qosBuf[:0], ""
	n := 0
	for rest, more := text, true; more; {
		var raw string
		raw, rest, more = nextLine(rest)
		n++
		line := strings.TrimSpace(raw)
		if cut && line != "" && qosKept(line) {
			qos = append(qos, raw)
			if strings.HasPrefix(line, "DCBX mode:") {
				dcbx = joinLine(dcbx, raw)
			}
		}
		first := "" // its first field, as strings.Fields would split it; the rows are split only in the PFC block
		if section == "pfc" {
			first = firstField(line)
		}
		errf := func(format string, a ...any) error {
			return fmt.Errorf("mlnx_qos line %d %s: "+format, append([]any{n, collectors.QuoteLine(line)}, a...)...)
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "DCBX mode:"):
			switch v := strings.TrimSpace(strings.TrimPrefix(line, "DCBX mode:")); v {
			case "OS controlled":
				q.DCBXMode = "os"
			case "Firmware controlled":
				q.DCBXMode = "firmware"
			default:
				return q, qosExcerpts{}, errf("expected `OS controlled` or `Firmware controlled`")
			}
			section = ""
		case strings.HasPrefix(line, "Priority trust state:"):
			q.Trust = strings.TrimSpace(strings.TrimPrefix(line, "Priority trust state:"))
			if q.Trust == "" {
				return q, qosExcerpts{}, errf("empty trust state")
			}
			section = ""
		case strings.HasPrefix(line, "Cable len:"):
			// mlx5 reports its dcbnl PFC "delay" field here: the cable length in metres the
			// NIC sizes its own receive headroom for (mlnx_qos --cable_len; driver default 7).
			v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Cable len:")))
			if err != nil || v < 0 {
				return q, qosExcerpts{}, errf("expected `Cable len: N` (metres)")
			}
			q.CableLenM = v
			section = ""
		case line == "dscp2prio mapping:":
			section = "dscp"
		case line == "default priority:":
			section = "default"
		case strings.HasPrefix(line, "prio:") && section == "dscp":
			p, list, ok := matchDSCPLine(line)
			if !ok {
				return q, qosExcerpts{}, errf("expected `prio:N dscp:D,D,...,`")
			}
			prio, _ := strconv.Atoi(p)
			if prio > 7 {
				return q, qosExcerpts{}, errf("priority %d out of range 0..7", prio)
			}
			for rest := list; rest != ""; { // cut by hand, as the lines are: no iterator closure a list
				d := rest
				if i := strings.IndexByte(rest, ','); i >= 0 {
					d, rest = rest[:i], rest[i+1:]
				} else {
					rest = ""
				}
				if d == "" {
					continue
				}
				v, err := strconv.Atoi(d)
				if err != nil || v > 63 {
					return q, qosExcerpts{}, errf("DSCP %q out of range 0..63", d)
				}
				dscp[v] = prio
			}
		case section == "default" && indented(raw):
			// the default-priority value rows (removed from mlnx_qos in 2024) decide nothing here
		case strings.HasPrefix(line, "prio:"):
			return q, qosExcerpts{}, errf("a `prio:` row outside the dscp2prio mapping block")
		case line == "PFC configuration:":
			section, sawPFC = "pfc", true
		case section == "pfc" && first == "priority":
			if f, nf := fields9(line); nf != 9 || [8]string(f[1:]) != [8]string{"0", "1", "2", "3", "4", "5", "6", "7"} {
				return q, qosExcerpts{}, errf("expected the priority header `priority 0 1 2 3 4 5 6 7`")
			}
		case section == "pfc" && (first == "enabled" || first == "buffer"):
			f, nf := fields9(line)
			if nf != 9 {
				return q, qosExcerpts{}, errf("expected %s followed by 8 values", f[0])
			}
			for i, v := range f[1:] {
				x, err := strconv.Atoi(v)
				if err != nil || x < 0 || x > 7 || (f[0] == "enabled" && x > 1) {
					return q, qosExcerpts{}, errf("value %q of priority %d is not valid", v, i)
				}
				if f[0] == "enabled" {
					q.PFC[i] = x == 1
				}
			}
			if f[0] == "enabled" {
				sawEnabled = true
			}
		case strings.HasPrefix(line, "tc:"):
			tc, tsa, ok := matchTCLine(line)
			if !ok {
				return q, qosExcerpts{}, errf("expected `tc: N ratelimit: R, tsa: TSA`")
			}
			curTC, _ = strconv.Atoi(tc)
			if curTC > 7 {
				return q, qosExcerpts{}, errf("traffic class %d out of range 0..7", curTC)
			}
			q.TCTSA[curTC] = tsa
			section = "tc"
		case section == "tc" && strings.HasPrefix(line, "priority:"):
			p, ok := matchTCPrio(line)
			if !ok {
				return q, qosExcerpts{}, errf("expected `priority: N` under a tc block")
			}
			prio, _ := strconv.Atoi(p)
			if prio > 7 {
				return q, qosExcerpts{}, errf("priority %d out of range 0..7", prio)
			}
			q.PrioTC[prio] = curTC
		default:
			// Warnings ("****** WARNING: lldpad service is running ...", "... is not supported
			// on your system") and "Receive buffer size": informational only.
			section = ""
		}
	}
	if !sawPFC || !sawEnabled {
		return topology.HostQoS{}, qosExcerpts{}, fmt.Errorf("mlnx_qos: no `PFC configuration:` block with an `enabled` row (expected mlnx_qos -i output)")
	}
	if q.Trust == "dscp" {
		if len(dscp) == 0 {
			return topology.HostQoS{}, qosExcerpts{}, fmt.Errorf("mlnx_qos: trust is dscp but no `prio:N dscp:...` mapping rows follow `dscp2prio mapping:`")
		}
		q.DSCPToPrio = dscp
	}
	if len(q.TCTSA) == 0 {
		q.TCTSA, q.PrioTC = nil, nil
	}
	return q, qosExcerpts{qos: strings.Join(qos, "\n"), dcbx: dcbx}, nil
}

// qosKept is a trimmed mlnx_qos line the QoS excerpt keeps: those that decide trust, PFC,
// the DCBX owner and the cable length the NIC sizes its headroom for.
func qosKept(t string) bool {
	return strings.HasPrefix(t, "DCBX mode:") || strings.HasPrefix(t, "Priority trust state:") || strings.HasPrefix(t, "Cable len:") ||
		strings.HasPrefix(t, "priority ") || strings.HasPrefix(t, "enabled ") || strings.HasPrefix(t, "prio:") ||
		strings.Contains(t, "WARNING")
}

// joinLine is a excerpt with one more line (joined by a newline, as strings.Join does).
func joinLine(excerpt, line string) string {
	if excerpt == "" {
		return line
	}
	return excerpt + "\n" + line
}

// firstField is the first field of a trimmed line, as strings.Fields splits it.
func firstField(line string) string {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= utf8.RuneSelf {
			if j := strings.IndexFunc(line, unicode.IsSpace); j >= 0 {
				return line[:j]
			}
			return line
		}
		if asciiSpace(c) {
			return line[:i]
		}
	}
	return line
}

// fields9 is strings.Fields of line, its first 9 fields and how many it has, without a slice
// (an ASCII line; any other is split by strings.Fields).
func fields9(line string) (f [9]string, n int) {
	for i := 0; i < len(line); i++ {
		if line[i] >= utf8.RuneSelf {
			all := strings.Fields(line)
			copy(f[:], all)
			return f, len(all)
		}
	}
	for i := 0; i < len(line); {
		for i < len(line) && asciiSpace(line[i]) {
			i++
		}
		start := i
		for i < len(line) && !asciiSpace(line[i]) {
			i++
		}
		if i > start {
			if n < len(f) {
				f[n] = line[start:i]
			}
			n++
		}
	}
	return f, n
}

// asciiSpace is an ASCII byte unicode.IsSpace holds a space.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// indented reports whether a line starts with a tab or space (a row under a heading).
func indented(raw string) bool { return raw != "" && (raw[0] == '\t' || raw[0] == ' ') }
