package linux

// Small fuzz seeds: miniatures of this package's recorded replies (see fuzzseed).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"

	"github.com/roceaudit/roceaudit/topology"
)

func addSeeds(f *testing.F, seeds ...string) { fuzzseed.Add(f, seeds...) }

// miniLines is the line-oriented output s cut to the first keep lines of each shape: a
// line's shape is its text before the first ':' (all of it when there is none), digit runs
// made one '#', so that rx_prio0_pause .. rx_prio7_pause, GID[ 0] .. GID[ 9], the gids files
// of every port or the hca_id lines of every device are one shape. Blank lines stay.
func miniLines(s string, keep int) string {
	var b strings.Builder
	count := map[string]int{}
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.TrimSpace(l) != "" {
			key, _, _ := strings.Cut(l, ":")
			var k strings.Builder
			digit := false
			for _, r := range key {
				if '0' <= r && r <= '9' {
					if !digit {
						k.WriteByte('#')
					}
					digit = true
					continue
				}
				digit = false
				k.WriteRune(r)
			}
			if count[k.String()]++; count[k.String()] > keep {
				continue
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// lineVariants are textVariants of the line-oriented s plus, for each of its first lines
// with a value (after ':' or '='), the line given twice, its key upper-cased, with a
// no-break space or a tab, and its value +7, 0012, -1, 1e3, too many digits, é, empty.
func lineVariants(s string, lines int) []string {
	v := fuzzseed.TextVariants(s)
	all := strings.SplitAfter(s, "\n")
	with := func(i int, l string) string {
		c := append([]string(nil), all...)
		c[i] = l
		return strings.Join(c, "")
	}
	for i, l := range all {
		j := strings.IndexAny(l, ":=")
		if j < 0 {
			continue
		}
		if lines--; lines < 0 {
			break
		}
		val := strings.TrimRight(l[j+1:], "\r\n")
		end := l[j+1+len(val):]
		lead := val[:len(val)-len(strings.TrimLeft(val, " \t"))]
		v = append(v, with(i, l+l), with(i, strings.ToUpper(l[:j])+l[j:]), with(i, l[:j]+"\u00a0"+l[j:]), with(i, "\t"+l))
		for _, e := range []string{"+7", "0012", "-1", "1e3", "99999999999999999999", "é", "", "1 ", " 1"} {
			v = append(v, with(i, l[:j+1]+lead+e+end))
		}
	}
	return v
}

// miniCounters is the ethtool -S or hw_counters output s cut to its first line, the next
// three, and (miniLines, keep a shape) the lines naming a counter an audit keeps
// (topology.IsSnapshotCounter).
func miniCounters(s string, keep int) string {
	var b strings.Builder
	for i, l := range strings.SplitAfter(s, "\n") {
		name, _, _ := strings.Cut(l, ":")
		name = strings.TrimSpace(name[strings.LastIndexByte(name, '/')+1:])
		if i < 4 || topology.IsSnapshotCounter(name) {
			b.WriteString(l)
		}
	}
	return miniLines(b.String(), keep)
}

// fixtureFiles are the contents of the fixture files matching glob, in every scenario.
func fixtureFiles(tb testing.TB, glob string) []string {
	files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", glob))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fixture matches %s", glob)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// textMinis are the miniatures (miniLines, keep lines a shape) of outs and, for the first,
// its lineVariants.
func textMinis(keep int, outs ...string) []string {
	var seeds []string
	for i, s := range outs {
		m := miniLines(s, keep)
		seeds = append(seeds, m, miniLines(s, 1))
		if i == 0 {
			seeds = append(seeds, lineVariants(m, 12)...)
		}
	}
	return seeds
}

// jsonMinis are the miniatures (two members a collection) of the JSON outs and, for the first,
// its jsonVariants.
func jsonMinis(tb testing.TB, outs ...string) []string {
	var seeds []string
	for i, s := range outs {
		m := fuzzseed.MiniJSON(s, 2, 0)
		if !json.Valid([]byte(m)) && json.Valid([]byte(s)) {
			tb.Fatalf("the miniature is not JSON: %q", m)
		}
		seeds = append(seeds, m, fuzzseed.MiniJSON(s, 1, 0))
		if i == 0 {
			seeds = append(seeds, fuzzseed.JSONVariants(m, 25)...)
		}
	}
	return seeds
}

// ipMinis are the miniatures of the recorded ip -d -j addr outputs.
func ipMinis(tb testing.TB) []string {
	return jsonMinis(tb, append([]string{loadTranscript(tb)[CmdIPAddr].Stdout}, fixtureFiles(tb, "ip_addr")...)...)
}

// The miniatures are small, and still what the fast paths read.
func TestMiniSeeds(t *testing.T) {
	for _, s := range ipMinis(t)[:1] {
		if _, _, ok := scanIPLinks(s); !ok || len(s) > 4096 {
			t.Errorf("an ip miniature of %d bytes (scan reads it: %v):\n%s", len(s), ok, s)
		}
	}
	for _, s := range jsonMinis(t, fixtureFiles(t, "lldpcli")...)[:1] {
		if _, ok := scanLLDPJSON0(s); !ok || len(s) > 4096 {
			t.Errorf("an lldpcli miniature of %d bytes (scan reads it: %v):\n%s", len(s), ok, s)
		}
	}
	tr := loadTranscript(t)
	for _, cmd := range []string{CmdIbvDevinfo, CmdGIDs, "mlnx_qos -i ens1np0"} {
		if m := miniLines(tr[cmd].Stdout, 1); len(m) > 4096 || len(m) == 0 {
			t.Errorf("%s: a miniature of %d bytes", cmd, len(m))
		}
	}
	for _, cmd := range []string{"ethtool -S ens1np0", "grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"} {
		if m := miniCounters(tr[cmd].Stdout, 2); len(m) > 4096 || len(m) == 0 {
			t.Errorf("%s: a miniature of %d bytes:\n%s", cmd, len(m), m)
		}
	}
}

// counterMinis are miniatures of the recorded ethtool -S and hw_counters outputs and their
// lineVariants, each list led by the two bases.
func counterMinis(tb testing.TB) (st, hw []string) {
	tr := loadTranscript(tb)
	st = append(st, miniCounters(tr["ethtool -S ens1np0"].Stdout, 2))
	hw = append(hw, miniCounters(tr["grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*"].Stdout, 2))
	for _, s := range fixtureFiles(tb, "ethtool_S.*[^rt]") {
		st = append(st, miniCounters(s, 1))
	}
	for _, s := range fixtureFiles(tb, "hw_counters.*") {
		hw = append(hw, miniCounters(s, 1))
	}
	return append(st, lineVariants(st[0], 12)...), append(hw, lineVariants(hw[0], 12)...)
}
