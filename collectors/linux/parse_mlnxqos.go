package linux

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

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
	q := topology.HostQoS{Tool: "mlnx_qos", TCTSA: map[int]string{}, PrioTC: map[int]int{}}
	dscp := make(map[int]int, 64) // all 64 code points are mapped: growing to them was 11% of a host's allocation
	section, curTC := "", -1
	sawPFC, sawEnabled := false, false
	n := -1
	for raw := range strings.SplitSeq(text, "\n") {
		n++
		line := strings.TrimSpace(raw)
		first := line // its first field, as strings.Fields would split it; the rows are split only in the PFC block
		if i := strings.IndexFunc(line, unicode.IsSpace); i >= 0 {
			first = line[:i]
		}
		errf := func(format string, a ...any) error {
			return fmt.Errorf("mlnx_qos line %d %s: "+format, append([]any{n + 1, collectors.QuoteLine(line)}, a...)...)
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
				return q, errf("expected `OS controlled` or `Firmware controlled`")
			}
			section = ""
		case strings.HasPrefix(line, "Priority trust state:"):
			q.Trust = strings.TrimSpace(strings.TrimPrefix(line, "Priority trust state:"))
			if q.Trust == "" {
				return q, errf("empty trust state")
			}
			section = ""
		case strings.HasPrefix(line, "Cable len:"):
			// mlx5 reports its dcbnl PFC "delay" field here: the cable length in metres the
			// NIC sizes its own receive headroom for (mlnx_qos --cable_len; driver default 7).
			v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Cable len:")))
			if err != nil || v < 0 {
				return q, errf("expected `Cable len: N` (metres)")
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
				return q, errf("expected `prio:N dscp:D,D,...,`")
			}
			prio, _ := strconv.Atoi(p)
			if prio > 7 {
				return q, errf("priority %d out of range 0..7", prio)
			}
			for d := range strings.SplitSeq(list, ",") {
				if d == "" {
					continue
				}
				v, err := strconv.Atoi(d)
				if err != nil || v > 63 {
					return q, errf("DSCP %q out of range 0..63", d)
				}
				dscp[v] = prio
			}
		case section == "default" && indented(raw):
			// the default-priority value rows (removed from mlnx_qos in 2024) decide nothing here
		case strings.HasPrefix(line, "prio:"):
			return q, errf("a `prio:` row outside the dscp2prio mapping block")
		case line == "PFC configuration:":
			section, sawPFC = "pfc", true
		case section == "pfc" && first == "priority":
			f := strings.Fields(line)
			if len(f) != 9 || strings.Join(f[1:], " ") != "0 1 2 3 4 5 6 7" {
				return q, errf("expected the priority header `priority 0 1 2 3 4 5 6 7`")
			}
		case section == "pfc" && (first == "enabled" || first == "buffer"):
			f := strings.Fields(line)
			if len(f) != 9 {
				return q, errf("expected %s followed by 8 values", f[0])
			}
			for i, v := range f[1:] {
				x, err := strconv.Atoi(v)
				if err != nil || x < 0 || x > 7 || (f[0] == "enabled" && x > 1) {
					return q, errf("value %q of priority %d is not valid", v, i)
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
				return q, errf("expected `tc: N ratelimit: R, tsa: TSA`")
			}
			curTC, _ = strconv.Atoi(tc)
			if curTC > 7 {
				return q, errf("traffic class %d out of range 0..7", curTC)
			}
			q.TCTSA[curTC] = tsa
			section = "tc"
		case section == "tc" && strings.HasPrefix(line, "priority:"):
			p, ok := matchTCPrio(line)
			if !ok {
				return q, errf("expected `priority: N` under a tc block")
			}
			prio, _ := strconv.Atoi(p)
			if prio > 7 {
				return q, errf("priority %d out of range 0..7", prio)
			}
			q.PrioTC[prio] = curTC
		default:
			// Warnings ("****** WARNING: lldpad service is running ...", "... is not supported
			// on your system") and "Receive buffer size": informational only.
			section = ""
		}
	}
	if !sawPFC || !sawEnabled {
		return topology.HostQoS{}, fmt.Errorf("mlnx_qos: no `PFC configuration:` block with an `enabled` row (expected mlnx_qos -i output)")
	}
	if q.Trust == "dscp" {
		if len(dscp) == 0 {
			return topology.HostQoS{}, fmt.Errorf("mlnx_qos: trust is dscp but no `prio:N dscp:...` mapping rows follow `dscp2prio mapping:`")
		}
		q.DSCPToPrio = dscp
	}
	if len(q.TCTSA) == 0 {
		q.TCTSA, q.PrioTC = nil, nil
	}
	return q, nil
}

// indented reports whether a line starts with a tab or space (a row under a heading).
func indented(raw string) bool { return raw != "" && (raw[0] == '\t' || raw[0] == ' ') }
