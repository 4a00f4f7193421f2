package sonic

// Small fuzz seeds: miniatures of this package's recorded replies (see fuzzseed).

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

func addSeeds(f *testing.F, seeds ...string) { fuzzseed.Add(f, seeds...) }

// miniTable is the text table s with each block of rows (the lines after a rule line of
// dashes, up to a blank line or the next rule) cut to its first keep rows; headers, rules
// and trailers are kept as they are.
func miniTable(s string, keep int) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	rows := -1 // not in a block
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t != "" && strings.Trim(t, "- ") == "":
			rows = 0
		case t == "":
			rows = -1
		case rows >= 0:
			if rows++; rows > keep {
				continue
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// tableVariants are textVariants of the text table s plus, for its first row, the row given
// twice, without its last column, with one more, with tabs for spaces, shifted right by one,
// each of the first six columns' value N/A, empty, negative, with a leading zero, a thousands
// separator in the wrong place, a non-ASCII letter or too many digits; and the header in lower
// case.
func tableVariants(s string) []string {
	v := fuzzseed.TextVariants(s)
	lines := strings.SplitAfter(s, "\n")
	row := -1
	for i := 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i-1])
		if t != "" && strings.Trim(t, "- ") == "" && strings.TrimSpace(lines[i]) != "" {
			row = i
			break
		}
	}
	if row < 0 {
		return v
	}
	with := func(i int, l string) string {
		c := append([]string(nil), lines...)
		c[i] = l
		return strings.Join(c, "")
	}
	l := lines[row]
	nl := ""
	if strings.HasSuffix(l, "\n") {
		l, nl = l[:len(l)-1], "\n"
	}
	v = append(v, with(row, l+nl+l+nl), with(row, l+"  x"+nl), with(row, strings.ReplaceAll(l, "  ", "\t")+nl), with(row, " "+l+nl),
		with(row-2, strings.ToLower(lines[max(row-2, 0)])))
	if j := strings.LastIndexAny(strings.TrimRight(l, " "), " "); j > 0 {
		v = append(v, with(row, l[:j]+nl))
	}
	// the first columns' values, by the fields' positions
	spans := fieldSpans(l)
	for _, f := range spans[:min(len(spans), 6)] {
		for _, e := range []string{"N/A", "", "-1", "01", "1,,0", "é", "99999999999999999999"} {
			v = append(v, with(row, l[:f[0]]+e+l[f[1]:]+nl))
		}
	}
	return v
}

// fieldSpans are the byte spans of l's space-separated fields.
func fieldSpans(l string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(l); {
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		j := i
		for j < len(l) && l[j] != ' ' && l[j] != '\t' {
			j++
		}
		if j > i {
			spans = append(spans, [2]int{i, j})
		}
		i = j
	}
	return spans
}

// fixtureMinis are the miniatures of every recorded reply (fixtures/sonic/verbatim, healthy
// and broken) and their variants: JSON replies (CONFIG_DB) with every table kept and cut to
// two rows, text tables cut to two rows per block.
func fixtureMinis(t testing.TB, wantJSON bool) []string {
	var seeds []string
	varied := map[string]bool{}
	for _, s := range fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken") {
		isJSON := json.Valid([]byte(s))
		switch {
		case isJSON && wantJSON:
			m := fuzzseed.MiniJSON(s, 2, 1)
			if !json.Valid([]byte(m)) {
				t.Fatalf("the miniature is not JSON: %q", m)
			}
			if len(seeds) == 0 { // the edge cases of the first CONFIG_DB only: every seed costs
				seeds = append(seeds, fuzzseed.JSONVariants(m, 25)...)
			}
			seeds = append(seeds, m)
		case !isJSON && !wantJSON:
			m := miniTable(s, 2)
			seeds = append(seeds, m, miniTable(s, 1))
			if head, _, _ := strings.Cut(m, "\n"); !varied[head] { // once a command
				varied[head] = true
				seeds = append(seeds, tableVariants(m)...)
			}
		}
	}
	if len(seeds) == 0 {
		t.Fatal("no recorded reply")
	}
	return seeds
}

// smallFirst adds the miniatures (JSON or text), then the recorded replies whole, then
// extra, shortest first.
func smallFirst(f *testing.F, wantJSON bool, extra ...string) {
	seeds := append(fixtureMinis(f, wantJSON), fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken")...)
	addSeeds(f, append(seeds, extra...)...)
}

// The miniatures are small, and still what the fast paths read.
func TestMiniSeeds(t *testing.T) {
	scanned := func(s string) bool { _, ok := scanRunningConfig(s); return ok }
	for _, b := range fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken") {
		if !json.Valid([]byte(b)) {
			continue
		}
		if s := fuzzseed.MiniJSON(b, 2, 1); len(s) > 8192 || !scanned(s) {
			t.Errorf("a CONFIG_DB miniature of %d bytes (scan reads it: %v)", len(s), scanned(s))
		}
	}
	if n := len(fixtureMinis(t, true)); n > 600 {
		t.Errorf("%d CONFIG_DB seeds", n)
	}
	for _, s := range fixtureMinis(t, false) {
		if len(s) > 4096 {
			t.Errorf("a table miniature of %d bytes:\n%s", len(s), s)
		}
	}
}

// One CONFIG_DB row, in a fixed minimal document: the fuzzer's mutations all land in the row
// (and its table's and key's names, as written) that the scan reads field by field. The scan
// reads it as the decoder does, or declines. (The facts' check, FuzzIndexedFactsAsPlain, costs
// a millisecond a run: here it made minimizing each new input stall the fuzzer for seconds.)
func FuzzConfigRowAsDecoder(f *testing.F) {
	var db string
	for _, s := range fixturerunner.Seeds(fixtures{}, "healthy") {
		if json.Valid([]byte(s)) {
			db = s
		}
	}
	root := fuzzseed.Spans(db)
	if root == nil || root.Kind != '{' {
		f.Fatal("no recorded CONFIG_DB")
	}
	var port string
	for i, table := range root.Kids { // the first row of each table
		if table.Kind == '{' && len(table.Kids) > 0 {
			name, key, row := db[root.Keys[i][0]:root.Keys[i][1]], db[table.Keys[0][0]:table.Keys[0][1]], db[table.Kids[0].Start:table.Kids[0].End]
			f.Add(name, key, row)
			if name == `"PORT"` {
				port = row
			}
		}
	}
	if port == "" {
		f.Fatal("no PORT row")
	}
	for _, r := range fuzzseed.JSONVariants(port, 25) {
		f.Add(`"PORT"`, `"Ethernet0"`, r)
	}
	for _, k := range []string{`"Ethernet0|3"`, `"Ethernet0,Ethernet4|3-4"`, `"Eth\u0065rnet0"`, `"ethernet0"`, `""`, `"Ethernet0","Ethernet0":{}`} {
		f.Add(`"PORT"`, k, port)
	}
	f.Fuzz(func(t *testing.T, table, key, row string) {
		out := `{` + table + `:{` + key + `:` + row + `},"PORT":{"Ethernet0":{"mtu":"9100"}}}`
		got, ok := scanRunningConfig(out)
		if !ok {
			return
		}
		want, err := decodeRunningConfig(out)
		if err != nil {
			t.Fatalf("%q: the scan read %v where the decoder fails: %v", out, got.Tables, err)
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(ConfigDB{})); d != "" {
			t.Fatalf("%q: scan and decoder differ (-decoder +scan):\n%s", out, d)
		}
	})
}
