package linux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

var (
	qosDSCPLine = regexp.MustCompile(`^prio:(\d+) dscp:([\d,]*)$`)
	qosTCLine   = regexp.MustCompile(`^tc: (\d+) ratelimit: ([^,]+), tsa: (\w+)`)
	qosTCPrio   = regexp.MustCompile(`^priority:\s+(\d+)$`)
)

// ParseMlnxQos reads `mlnx_qos -i IF` in every layout mlnx-tools printed since 2017 (its git
// history): with or without the DCBX mode / trust / buffer lines, wrapped dscp2prio rows,
// the `default priority:` block and lldpad/unsupported warnings. Tabs are not relied on
// (copies often expand them). DCBXMode is "" when the DCBX line is absent; Trust is "" when
// the trust line is absent (mlnx_qos before OFED 4.2, or trust unsupported).
func ParseMlnxQos(text string) (topology.HostQoS, error) {
	q := topology.HostQoS{Tool: "mlnx_qos", TCTSA: map[int]string{}, PrioTC: map[int]int{}}
	dscp := map[int]int{}
	section, curTC := "", -1
	sawPFC, sawEnabled := false, false
	n := -1
	for raw := range strings.SplitSeq(text, "\n") {
		n++
		line := strings.TrimSpace(raw)
		f := strings.Fields(line)
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
			m := qosDSCPLine.FindStringSubmatch(line)
			if m == nil {
				return q, errf("expected `prio:N dscp:D,D,...,`")
			}
			prio, _ := strconv.Atoi(m[1])
			if prio > 7 {
				return q, errf("priority %d out of range 0..7", prio)
			}
			for _, d := range strings.Split(m[2], ",") {
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
		case section == "pfc" && f[0] == "priority":
			if len(f) != 9 || strings.Join(f[1:], " ") != "0 1 2 3 4 5 6 7" {
				return q, errf("expected the priority header `priority 0 1 2 3 4 5 6 7`")
			}
		case section == "pfc" && (f[0] == "enabled" || f[0] == "buffer"):
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
			m := qosTCLine.FindStringSubmatch(line)
			if m == nil {
				return q, errf("expected `tc: N ratelimit: R, tsa: TSA`")
			}
			curTC, _ = strconv.Atoi(m[1])
			if curTC > 7 {
				return q, errf("traffic class %d out of range 0..7", curTC)
			}
			q.TCTSA[curTC] = m[3]
			section = "tc"
		case section == "tc" && strings.HasPrefix(line, "priority:"):
			m := qosTCPrio.FindStringSubmatch(line)
			if m == nil {
				return q, errf("expected `priority: N` under a tc block")
			}
			prio, _ := strconv.Atoi(m[1])
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
