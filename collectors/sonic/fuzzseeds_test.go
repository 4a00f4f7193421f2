package sonic

// Small fuzz seeds. The recorded replies are whole leaves: seeded with them alone, a fuzz
// target spends its time copying and re-running kilobytes and explores next to nothing. These
// helpers cut a recorded JSON reply down to one or two records, keeping its exact bytes
// (indentation, key order, number spelling), and derive from that miniature the edge cases a
// fast path must decline or read exactly as its reference: escapes, unicode, duplicate keys,
// keys differing only in case, nulls, odd numbers, CRLF, trailing spaces, truncations.
// The same file is in each collector package (test files cannot be shared).

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
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
	v := textVariants(s)
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
			m := miniJSON(s, 2, 1)
			if !json.Valid([]byte(m)) {
				t.Fatalf("the miniature is not JSON: %q", m)
			}
			if len(seeds) == 0 { // the edge cases of the first CONFIG_DB only: every seed costs
				seeds = append(seeds, jsonVariants(m, 25)...)
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
		if s := miniJSON(b, 2, 1); len(s) > 8192 || !scanned(s) {
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
	root := jsonSpans(db)
	if root == nil || root.kind != '{' {
		f.Fatal("no recorded CONFIG_DB")
	}
	var port string
	for i, table := range root.kids { // the first row of each table
		if table.kind == '{' && len(table.kids) > 0 {
			name, key, row := db[root.keys[i][0]:root.keys[i][1]], db[table.keys[0][0]:table.keys[0][1]], db[table.kids[0].start:table.kids[0].end]
			f.Add(name, key, row)
			if name == `"PORT"` {
				port = row
			}
		}
	}
	if port == "" {
		f.Fatal("no PORT row")
	}
	for _, r := range jsonVariants(port, 25) {
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
