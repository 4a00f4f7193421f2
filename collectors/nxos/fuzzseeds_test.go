package nxos

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

// miniSeeds are the miniatures of cmd's recorded replies (keep records per collection) and
// the jsonVariants of the first.
func miniSeeds(t testing.TB, cmd string, keep int, scenarios ...string) []string {
	var seeds []string
	for _, sc := range scenarios {
		b, err := readSeed(sc, cmd)
		if err != nil {
			continue
		}
		m := miniJSON(b, keep, 0)
		if m != b && !json.Valid([]byte(m)) {
			t.Fatalf("%s %q: the miniature is not JSON: %q", sc, cmd, m)
		}
		if len(seeds) == 0 { // the edge cases of the first reply only: every seed costs
			seeds = append(seeds, jsonVariants(m, 25)...)
		}
		seeds = append(seeds, m, miniJSON(b, 1, 0))
	}
	if len(seeds) == 0 {
		t.Fatalf("no recorded reply for %q", cmd)
	}
	return seeds
}

// The miniatures are small, and still what the fast paths read: a miniature they declined
// would fuzz only the fallback.
func TestMiniSeeds(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		fast func(string) bool
	}{
		{CmdLLDP, func(s string) bool { _, ok := scanLLDPRows(s); return ok }},
		{CmdInterface, func(s string) bool { _, ok := scanInterfaceRows(s); return ok }},
		{CmdInterface, func(s string) bool { _, ok := fastInterfaceRows(s); return ok }},
		{CmdQueuingJSON, func(s string) bool { _, ok := scanQueuingJSON(s); return ok }},
		{CmdQueuingJSON, func(s string) bool { _, ok := fastQueuingJSON(s); return ok }},
	} {
		b, err := readSeed("healthy", c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		m := miniJSON(b, 2, 0)
		if len(m) > 4096 || !c.fast(m) {
			t.Errorf("%q: a miniature of %d bytes (fast path reads it: %v):\n%s", c.cmd, len(m), c.fast(m), m)
		}
		if n := len(miniSeeds(t, c.cmd, 2, "healthy")); n < 50 {
			t.Errorf("%q: %d seeds", c.cmd, n)
		}
	}
}

// records are the elements of the arrays (and the members of the objects) found at path in
// the JSON text s, as written; "*" in path is every member.
func records(s string, path ...string) []string {
	nodes := []*jsonNode{jsonSpans(s)}
	for _, p := range path {
		var next []*jsonNode
		for _, n := range nodes {
			if n == nil {
				continue
			}
			for i, kid := range n.kids {
				if p == "*" || n.kind == '{' && s[n.keys[i][0]:n.keys[i][1]] == `"`+p+`"` {
					next = append(next, kid)
				}
			}
		}
		nodes = next
	}
	var out []string
	for _, n := range nodes {
		if n != nil {
			out = append(out, s[n.start:n.end])
		}
	}
	return out
}

// One interface row, in a fixed minimal reply: the fuzzer's mutations all land in the row the
// scan and the fast reader read field by field; both read it as encoding/json does, or decline.
func FuzzInterfaceRecordAgreesWithDecoder(f *testing.F) {
	var recs []string
	for _, sc := range []string{"healthy", "broken", "aiml", "portchannel"} {
		if b, err := readSeed(sc, CmdInterface); err == nil {
			recs = append(recs, records(b, "TABLE_interface", "ROW_interface", "*")...)
		}
	}
	if len(recs) < 2 {
		f.Fatal("no recorded interface row")
	}
	// the front-panel row, not mgmt0, to lead
	for i, r := range recs {
		if strings.Contains(r, `"Ethernet`) {
			recs[0], recs[i] = recs[i], recs[0]
			break
		}
	}
	addSeeds(f, append(append(recs[:2:2], jsonVariants(recs[0], 30)...), recs[2:]...)...)
	f.Fuzz(func(t *testing.T, rec string) {
		s := `{"TABLE_interface":{"ROW_interface":[` + rec + `]}}`
		for name, read := range map[string]func(string) ([]interfaceRow, bool){"scan": scanInterfaceRows, "fast": fastInterfaceRows} {
			got, ok := read(s)
			if !ok {
				continue
			}
			want, err := decodeInterfaceRows(s)
			if err != nil {
				t.Fatalf("%q: the %s read %+v where encoding/json fails: %v", s, name, got, err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%q: %s and encoding/json differ (-json +%s):\n%s", s, name, name, d)
			}
		}
	})
}
