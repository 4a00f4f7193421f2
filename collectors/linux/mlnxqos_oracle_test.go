package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// ParseMlnxQos and the QoS excerpts as they were before readMlnxQos cut the excerpts in its
// own pass and split the PFC rows without strings.Fields: the oracle.

// qosExcerpt keeps the mlnx_qos lines that decide trust, PFC, the DCBX owner and the cable
// length the NIC sizes its headroom for.
func qosExcerpt(text string) string {
	return linesWhere(text, func(l string) bool {
		t := strings.TrimSpace(l)
		return strings.HasPrefix(t, "DCBX mode:") || strings.HasPrefix(t, "Priority trust state:") || strings.HasPrefix(t, "Cable len:") ||
			strings.HasPrefix(t, "priority ") || strings.HasPrefix(t, "enabled ") || strings.HasPrefix(t, "prio:") ||
			strings.Contains(t, "WARNING")
	})
}

// ParseMlnxQos reads `mlnx_qos -i IF` in every layout mlnx-tools printed since 2017 (its git
// history): with or without the DCBX mode / trust / buffer lines, wrapped dscp2prio rows,
// the `default priority:` block and lldpad/unsupported warnings. Tabs are not relied on
// (copies often expand them). DCBXMode is "" when the DCBX line is absent; Trust is "" when
// the trust line is absent (mlnx_qos before OFED 4.2, or trust unsupported).
func parseMlnxQosRef(text string) (topology.HostQoS, error) {
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

// checkMlnxQos compares readMlnxQos with the oracle: the QoS, the error and, on success,
// both excerpts.
func checkMlnxQos(t *testing.T, text string) {
	t.Helper()
	q, ex, err := readMlnxQos(text, true)
	want, wantErr := parseMlnxQosRef(text)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !cmp.Equal(q, want) {
		t.Fatalf("readMlnxQos(%q) = %+v, %v; was %+v, %v", text, q, err, want, wantErr)
	}
	if pub, pubErr := ParseMlnxQos(text); fmt.Sprint(pubErr) != fmt.Sprint(wantErr) || !cmp.Equal(pub, want) {
		t.Fatalf("ParseMlnxQos(%q) = %+v, %v; was %+v, %v", text, pub, pubErr, want, wantErr)
	}
	if err != nil {
		return
	}
	dcbx := linesWhere(text, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "DCBX mode:") })
	if ex.qos != qosExcerpt(text) || ex.dcbx != dcbx {
		t.Fatalf("%q: excerpts %q, %q; want %q, %q", text, ex.qos, ex.dcbx, qosExcerpt(text), dcbx)
	}
}

func mlnxQosSeeds(tb testing.TB) []string {
	seeds := []string{"PFC configuration:\n\tenabled 0 0 0 1 0 0 0 0\ntc: 7 ratelimit: x, tsa: y\n\t priority: 9\n",
		"DCBX mode: OS controlled\nDCBX mode: Firmware controlled\nPFC configuration:\n priority 0 1 2 3 4 5 6 7 8\n",
		"PFC configuration:\n\tpriority\u00a00 1 2 3 4 5 6 7\n\tenabled\u20030 0 0 1 0 0 0 0\n\tbuffer 0\v0 0 1 0 0 0 0\n WARNING: x\n",
		"PFC configuration:\n  priority  0 1 2 3 4 5 6\t7\n\tenabled 0 0 0 1 0 0 0 0\r\n enabled 1\n"}
	files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", "mlnx_qos.*[^rt]"))
	if err != nil || len(files) == 0 {
		tb.Fatal("no mlnx_qos fixture")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	return append(seeds, loadTranscript(tb)["mlnx_qos -i ens1np0"].Stdout)
}

// go test runs the seeds (the recorded outputs) as a test; to fuzz:
// go test -run XXX -fuzz FuzzMlnxQosOracle -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzMlnxQosOracle(f *testing.F) {
	minis := textMinis(2, append([]string{loadTranscript(f)["mlnx_qos -i ens1np0"].Stdout}, fixtureFiles(f, "mlnx_qos.*[^rt]")...)...)
	addSeeds(f, append(minis, mlnxQosSeeds(f)...)...)
	f.Fuzz(checkMlnxQos)
}
