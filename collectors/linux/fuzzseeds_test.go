package linux

// Small fuzz seeds. The recorded replies are whole leaves: seeded with them alone, a fuzz
// target spends its time copying and re-running kilobytes and explores next to nothing. These
// helpers cut a recorded JSON reply down to one or two records, keeping its exact bytes
// (indentation, key order, number spelling), and derive from that miniature the edge cases a
// fast path must decline or read exactly as its reference: escapes, unicode, duplicate keys,
// keys differing only in case, nulls, odd numbers, CRLF, trailing spaces, truncations.
// The same file is in each collector package (test files cannot be shared).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/roceaudit/roceaudit/topology"
)

// jsonNode is one value of a JSON text, by byte offsets; for an object, keys[i] is the span of
// member i's key (with its quotes) and kids[i] its value.
type jsonNode struct {
	start, end int
	kind       byte // '{', '[', '"', '0' (number), 'l' (true, false, null)
	keys       [][2]int
	kids       []*jsonNode
}

// jsonSpans parses the (valid) JSON text s into spans; nil if it is not valid as far as this
// simple parser checks.
func jsonSpans(s string) *jsonNode {
	i := 0
	ws := func() {
		for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
			i++
		}
	}
	str := func() bool {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				i = j + 1
				return true
			}
		}
		return false
	}
	var value func() *jsonNode
	value = func() *jsonNode {
		ws()
		if i >= len(s) {
			return nil
		}
		n := &jsonNode{start: i, kind: s[i]}
		switch s[i] {
		case '{', '[':
			closing := byte('}')
			if s[i] == '[' {
				closing = ']'
			}
			i++
			ws()
			if i < len(s) && s[i] == closing {
				i++
				n.end = i
				return n
			}
			for {
				if n.kind == '{' {
					ws()
					k := i
					if i >= len(s) || s[i] != '"' || !str() {
						return nil
					}
					n.keys = append(n.keys, [2]int{k, i})
					ws()
					if i >= len(s) || s[i] != ':' {
						return nil
					}
					i++
				}
				kid := value()
				if kid == nil {
					return nil
				}
				n.kids = append(n.kids, kid)
				ws()
				if i < len(s) && s[i] == ',' {
					i++
					continue
				}
				if i < len(s) && s[i] == closing {
					i++
					n.end = i
					return n
				}
				return nil
			}
		case '"':
			if !str() {
				return nil
			}
		default:
			for i < len(s) && strings.IndexByte(",]} \t\r\n", s[i]) < 0 {
				i++
			}
			if c := s[n.start]; c == '-' || '0' <= c && c <= '9' {
				n.kind = '0'
			} else {
				n.kind = 'l'
			}
		}
		n.end = i
		return n
	}
	root := value()
	if ws(); root == nil || i != len(s) {
		return nil
	}
	return root
}

func (n *jsonNode) container() bool { return n.kind == '{' || n.kind == '[' }

// lead is where member i starts: its key, or an array's element.
func (n *jsonNode) lead(i int) int {
	if n.kind == '{' {
		return n.keys[i][0]
	}
	return n.kids[i].start
}

// miniJSON is s with every collection (an object or array whose members are all objects or
// arrays, nested at least minDepth deep) cut to its first keep members, all other bytes kept.
// s itself when it is not JSON.
func miniJSON(s string, keep, minDepth int) string {
	root := jsonSpans(s)
	if root == nil {
		return s
	}
	var b strings.Builder
	var render func(n *jsonNode, depth int)
	render = func(n *jsonNode, depth int) {
		if !n.container() || len(n.kids) == 0 {
			b.WriteString(s[n.start:n.end])
			return
		}
		k := len(n.kids)
		if k > keep && depth >= minDepth {
			cut := true
			for _, c := range n.kids {
				cut = cut && c.container()
			}
			if cut {
				k = keep
			}
		}
		b.WriteString(s[n.start:n.lead(0)])
		for i := 0; i < k; i++ {
			if i > 0 {
				b.WriteString(s[n.kids[i-1].end:n.lead(i)])
			}
			b.WriteString(s[n.lead(i):n.kids[i].start])
			render(n.kids[i], depth+1)
		}
		b.WriteString(s[n.kids[len(n.kids)-1].end:n.end])
	}
	b.WriteString(s[:root.start])
	render(root, 0)
	b.WriteString(s[root.end:])
	return b.String()
}

// textVariants are s with CRLF line ends, trailing spaces, cut mid-way (at a quarter, a half,
// three quarters, one byte short), and the empty output.
func textVariants(s string) []string {
	v := []string{"", strings.ReplaceAll(s, "\n", "\r\n"), strings.ReplaceAll(s, "\n", "  \n"), s + " ", s + "x"}
	for _, n := range []int{len(s) / 4, len(s) / 2, len(s) * 3 / 4, len(s) - 1} {
		if n > 0 {
			v = append(v, s[:n])
		}
	}
	return v
}

// jsonVariants are textVariants of the JSON text s plus, for the first member of each distinct
// key (at most maxKeys of them, spread over the document), s with that member edited: the key's case flipped, the key given twice
// (before with another value, after with null), the value null, a string value escaped
// (\u00e9, \", \/, a letter as \u00XX, the same text), accented, a number or digit string
// spelled with an exponent, leading zeros, a sign, a fraction or too many digits, a container
// emptied or of the other kind.
func jsonVariants(s string, maxKeys int) []string {
	v := textVariants(s)
	root := jsonSpans(s)
	if root == nil {
		return v
	}
	edit := func(from, to int, with string) { v = append(v, s[:from]+with+s[to:]) }
	// the first member of each distinct key, in document order
	type member struct {
		key [2]int
		val *jsonNode
	}
	var members []member
	seen := map[string]bool{}
	var walk func(n *jsonNode)
	walk = func(n *jsonNode) {
		for i, kid := range n.kids {
			if n.kind == '{' {
				if key := s[n.keys[i][0]:n.keys[i][1]]; !seen[key] {
					seen[key] = true
					members = append(members, member{n.keys[i], kid})
				}
			}
			walk(kid)
		}
	}
	walk(root)
	for j := range min(maxKeys, len(members)) { // spread over the document
		m := members[j*len(members)/min(maxKeys, len(members))]
		ks, key, kid := m.key, s[m.key[0]:m.key[1]], m.val
		if r, size := utf8.DecodeRuneInString(key[1:]); r != utf8.RuneError && unicode.SimpleFold(r) != r {
			edit(ks[0]+1, ks[0]+1+size, string(unicode.SimpleFold(r)))
		}
		other := `"d\u00e9"`
		if kid.kind == '"' {
			other = `{}`
		}
		edit(ks[0], ks[0], key+":"+other+",")
		edit(kid.end, kid.end, ","+key+":null")
		editValue(s, kid, edit)
	}
	return v
}

func editValue(s string, n *jsonNode, edit func(from, to int, with string)) {
	text := s[n.start:n.end]
	edit(n.start, n.end, "null")
	switch n.kind {
	case '"':
		body := text[1 : len(text)-1]
		for _, e := range []string{`"\u00e9` + body + `"`, `"` + body + `\""`, `"` + body + `\/"`, `"é` + body + `"`, `"` + body + "\xff\"", `"` + body + ` "`} {
			edit(n.start, n.end, e)
		}
		if body != "" && body[0] < utf8.RuneSelf && body[0] != '\\' {
			edit(n.start+1, n.start+2, `\u00`+strings.ToLower(hex2(body[0])))
		}
		if j := strings.IndexByte(body, '/'); j >= 0 {
			edit(n.start+1+j, n.start+2+j, `\/`)
		}
		if body != "" && strings.Trim(body, "0123456789") == "" {
			for _, e := range []string{`"1e3"`, `"0` + body + `"`, `"-` + body + `"`, `"+` + body + `"`, `"` + body + `.0"`, `"99999999999999999999"`} {
				edit(n.start, n.end, e)
			}
		}
		edit(n.start, n.end, "5")
	case '0':
		for _, e := range []string{"1e3", "1E+2", "0" + text, "-" + text, "-0", text + ".0", "99999999999999999999", `"` + text + `"`} {
			edit(n.start, n.end, e)
		}
	case '{':
		edit(n.start, n.end, "{}")
		edit(n.start, n.end, "[]")
	case '[':
		edit(n.start, n.end, "[]")
		edit(n.start, n.end, "{}")
		edit(n.start, n.end, "[null]")
	case 'l':
		edit(n.start, n.end, `"`+text+`"`)
	}
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// addSeeds adds the seeds to f, shortest first (ties in the order given), once each: the
// fuzzer's first rounds go to the small ones.
func addSeeds(f *testing.F, seeds ...string) {
	sort.SliceStable(seeds, func(a, b int) bool { return len(seeds[a]) < len(seeds[b]) })
	seen := map[string]bool{}
	for _, s := range seeds {
		if !seen[s] {
			seen[s] = true
			f.Add(s)
		}
	}
}

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
	v := textVariants(s)
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
		m := miniJSON(s, 2, 0)
		if !json.Valid([]byte(m)) && json.Valid([]byte(s)) {
			tb.Fatalf("the miniature is not JSON: %q", m)
		}
		seeds = append(seeds, m, miniJSON(s, 1, 0))
		if i == 0 {
			seeds = append(seeds, jsonVariants(m, 25)...)
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
