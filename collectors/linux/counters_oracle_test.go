package linux

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// The counter parsers and collectCounters as they were before the parsers cut the excerpt
// in their own pass: the oracles the fast path must equal.

// counterExcerpt is the counter excerpt as the parsers cut it (their lines are those
// hasCounterWord finds), for the tests that compare it to its definition.
func counterExcerpt(text string) string { return linesWhere(text, hasCounterWord) }

func isHwCounterPathRef(p string) bool {
	rest, ok := strings.CutPrefix(p, "/sys/class/infiniband/")
	dev, rest, ok2 := strings.Cut(rest, "/")
	rest, ok3 := strings.CutPrefix(rest, "ports/")
	port, name, ok4 := strings.Cut(rest, "/hw_counters/")
	return ok && ok2 && ok3 && ok4 && dev != "" && port != "" && strings.Trim(port, "0123456789") == "" &&
		name != "" && !strings.ContainsAny(name, "/:")
}

func parseEthtoolStatsRef(text string, extra int, keep func(string) bool) (_ map[string]int64, rows int, _ error) {
	var out map[string]int64
	if keep == nil {
		out = make(map[string]int64, strings.Count(text, "\n")+extra)
	} else {
		out = map[string]int64{}
	}
	header := false
	n := -1
	for raw := range strings.SplitSeq(text, "\n") {
		n++
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if !header {
			if !strings.HasSuffix(line, "statistics:") {
				return nil, 0, fmt.Errorf("ethtool -S line %d %s: expected the `NIC statistics:` header", n+1, collectors.QuoteLine(line))
			}
			header = true
			continue
		}
		i := strings.LastIndex(line, ":")
		if i <= 0 {
			return nil, 0, fmt.Errorf("ethtool -S line %d %s: expected `name: value`", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.ParseInt(strings.TrimSpace(line[i+1:]), 10, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("ethtool -S line %d %s: value is not an integer", n+1, collectors.QuoteLine(line))
		}
		rows++
		if name := strings.TrimSpace(line[:i]); keep == nil || keep(name) {
			out[name] = v
		}
	}
	if !header {
		return nil, 0, fmt.Errorf("ethtool -S: empty output (expected `NIC statistics:` and counters)")
	}
	return out, rows, nil
}

func parseHwCountersRef(grepText string) ([]hwCounter, error) {
	out := make([]hwCounter, 0, strings.Count(grepText, "\n")+1)
	n := -1
	for line := range strings.SplitSeq(grepText, "\n") {
		n++
		if strings.TrimSpace(line) == "" {
			continue
		}
		p, val, ok := strings.Cut(line, ":")
		if !ok || !isHwCounterPathRef(p) {
			return nil, fmt.Errorf("hw_counters line %d %s: expected /sys/class/infiniband/DEV/ports/N/hw_counters/NAME:VALUE", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("hw_counters line %d: value %q is not an integer", n+1, val)
		}
		if name := path.Base(p); name != "lifespan" {
			out = append(out, hwCounter{name, v})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("hw_counters: no counter lines (expected PATH:VALUE per counter file)")
	}
	return out, nil
}

// countersFactRef is collectCounters' body as it was, over answers already read.
func countersFactRef(st result, hw *result, keep func(string) bool) topology.Fact[map[string]int64] {
	counters := map[string]int64{}
	var cmds, excerpts, errs []string
	read := 0
	hwLines := 0
	if hw != nil {
		hwLines = strings.Count(hw.out.Stdout, "\n") + 1
	}
	cmds = append(cmds, st.cmd)
	if !st.ok() {
		errs = append(errs, st.cmd+": "+st.failure())
	} else if m, rows, err := parseEthtoolStatsRef(st.out.Stdout, hwLines, keep); err != nil {
		errs = append(errs, err.Error())
	} else {
		counters = m
		read += rows
		excerpts = append(excerpts, counterExcerptRef(st.out.Stdout))
	}
	if hw != nil {
		cmds = append(cmds, hw.cmd)
		switch cs, err := parseHwCountersRef(hw.out.Stdout); {
		case !hw.ran():
			errs = append(errs, hw.cmd+": "+hw.failure())
		case err != nil:
			errs = append(errs, fmt.Sprintf("%s (%s): %v", hw.cmd, hw.failure(), err))
		default:
			read += len(cs)
			for _, c := range cs {
				if name := "rdma_" + c.name; keep == nil || keep(name) {
					counters[name] = c.v
				}
			}
			excerpts = append(excerpts, counterExcerptRef(hw.out.Stdout))
		}
	}
	src := topology.Evidence{Command: strings.Join(cmds, "; "), Excerpt: strings.TrimSpace(strings.Join(excerpts, "\n")), Error: strings.Join(errs, "; ")}
	if read == 0 {
		return topology.Unknown[map[string]int64](src)
	}
	return topology.Known(counters, src)
}

// counterAnswer is a command's answer for the counter tests: exit 255 is a transport error.
func counterAnswer(cmd, stdout string, exit uint8) result {
	if exit == 255 {
		return result{cmd: cmd, err: errors.New("session closed")}
	}
	return result{cmd: cmd, out: collectors.Output{Stdout: stdout, Stderr: "grep: x: Permission denied", ExitCode: int(exit)}}
}

// checkedCounters is an audit's filter, its memo shared by the checks as a run's devices share it.
var checkedCounters = collectors.NewCounterFilter(topology.IsSnapshotCounter)

// checkCountersFact compares countersFact and the exported parsers with their oracles.
func checkCountersFact(t *testing.T, stText, hwText string, stExit, hwExit uint8, bound, filter bool) {
	t.Helper()
	var keep func(string) bool
	var f *collectors.CounterFilter
	if filter {
		keep, f = topology.IsSnapshotCounter, checkedCounters
	}
	st := counterAnswer("ethtool -S x", stText, stExit)
	var hw *result
	if bound {
		r := counterAnswer("grep hw_counters", hwText, hwExit)
		hw = &r
	}
	if diff := cmp.Diff(countersFactRef(st, hw, keep), countersFact(st, hw, f)); diff != "" {
		t.Fatalf("countersFact(%q, %q, %d, %d, %v, %v) (-old +new):\n%s", stText, hwText, stExit, hwExit, bound, filter, diff)
	}
	m, rows, kept, err := parseEthtoolStats(stText, 0, f, nil)
	mr, rowsr, errr := parseEthtoolStatsRef(stText, 0, keep)
	if fmt.Sprint(err) != fmt.Sprint(errr) || rows != rowsr || !reflect.DeepEqual(m, mr) {
		t.Fatalf("parseEthtoolStats(%q) = %v, %d, %v; was %v, %d, %v", stText, m, rows, err, mr, rowsr, errr)
	}
	if ex := strings.Join(kept, "\n"); err == nil && ex != counterExcerptRef(stText) {
		t.Fatalf("ethtool -S excerpt of %q = %q, want %q", stText, ex, counterExcerptRef(stText))
	}
	cs, kept, err := parseHwCounters(hwText, nil, nil)
	csr, errr := parseHwCountersRef(hwText)
	if fmt.Sprint(err) != fmt.Sprint(errr) || !reflect.DeepEqual(cs, csr) {
		t.Fatalf("parseHwCounters(%q) = %v, %v; was %v, %v", hwText, cs, err, csr, errr)
	}
	if ex := strings.Join(kept, "\n"); err == nil && ex != counterExcerptRef(hwText) {
		t.Fatalf("hw_counters excerpt of %q = %q, want %q", hwText, ex, counterExcerptRef(hwText))
	}
}

// counterSeeds are the recorded ethtool -S and hw_counters outputs, paired in order.
func counterSeeds(tb testing.TB) (st, hw []string) {
	tb.Helper()
	for _, glob := range []string{"ethtool_S.*[^rt]", "hw_counters.*"} {
		files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", glob))
		if err != nil || len(files) == 0 {
			tb.Fatalf("no fixture matches %s", glob)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			if glob[0] == 'e' {
				st = append(st, string(b))
			} else {
				hw = append(hw, string(b))
			}
		}
	}
	tr := loadTranscript(tb)
	st = append(st, tr["ethtool -S ens1np0"].Stdout, "NIC statistics:\n     tx_pause_storm_warning_events : 3\n     big: 9223372036854775807\n",
		"pause statistics:\r\n rx_pause: +7\r\n x\u00a0: 1\n\u00a0ecn_x:\t 0012\n y: 1 \n", "NIC statistics:\n a: 1\n b: x\n", "")
	hw = append(hw, tr["grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"].Stdout,
		"/sys/class/infiniband/ecn_dev/ports/1/hw_counters/lifespan:10\n/sys/class/infiniband/ecn_dev/ports/1/hw_counters/x: 3 \r\n",
		"/sys/class/infiniband/d/ports/1/hw_counters/lifespan:10\n", "/sys/class/infiniband/d/ports/1/hw_counters/a:-1\n\n")
	for i := 0; len(hw) < len(st); i++ {
		hw = append(hw, hw[i])
	}
	return st, hw[:len(st)]
}

// The counters fact is the one collectCounters made before the parsers cut the excerpt.
func TestCountersFactMatchesOracle(t *testing.T) {
	st, hw := counterSeeds(t)
	for i := range st {
		for _, bound := range []bool{true, false} {
			for _, filter := range []bool{true, false} {
				for _, exits := range [][2]uint8{{0, 0}, {1, 2}, {255, 255}, {0, 255}} {
					checkCountersFact(t, st[i], hw[i], exits[0], exits[1], bound, filter)
					checkCountersFact(t, st[i], hw[(i+1)%len(hw)], exits[0], exits[1], bound, filter)
				}
			}
		}
	}
}

// go test -run XXX -fuzz FuzzCountersFact -fuzztime 60s ./collectors/linux
func FuzzCountersFact(f *testing.F) {
	sm, hm := counterMinis(f) // small first
	for i, s := range sm {
		f.Add(s, hm[0], uint8(0), uint8(0), true, i%2 == 0)
	}
	for i, s := range hm {
		f.Add(sm[0], s, uint8(0), uint8(i%2), i%3 != 0, i%2 == 1)
	}
	st, hw := counterSeeds(f)
	for i := range st {
		f.Add(st[i], hw[i], uint8(0), uint8(0), true, i%2 == 0)
	}
	f.Fuzz(checkCountersFact)
}

// BenchmarkCountersFact is one 400G port's counters (ethtool -S and hw_counters, every
// counter kept) read by countersFact and by the oracle.
func BenchmarkCountersFact(b *testing.B) {
	tr := loadTranscript(b)
	st := counterAnswer("ethtool -S ens1np0", tr["ethtool -S ens1np0"].Stdout, 0)
	hw := counterAnswer("hw", tr["grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"].Stdout, 0)
	for _, c := range []struct {
		name string
		f    func(result, *result) topology.Fact[map[string]int64]
	}{
		{"new", func(st result, hw *result) topology.Fact[map[string]int64] { return countersFact(st, hw, nil) }},
		{"oracle", func(st result, hw *result) topology.Fact[map[string]int64] { return countersFactRef(st, hw, nil) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.f(st, &hw)
			}
		})
	}
}
