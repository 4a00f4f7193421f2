// Package fuzzseed makes small fuzz seeds from recorded device replies. Seeded with whole
// leaves alone, a fuzz target spends its time copying and re-running kilobytes and explores
// next to nothing: these helpers cut a recorded JSON reply down to one or two records, keeping
// its exact bytes (indentation, key order, number spelling), and derive from that miniature
// the edge cases a fast path must decline or read exactly as its reference: escapes, unicode,
// duplicate keys, keys differing only in case, nulls, odd numbers, CRLF, trailing spaces,
// truncations. It is imported by tests only.
package fuzzseed

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Node is one value of a JSON text, by byte offsets; for an object, Keys[i] is the span of
// member i's key (with its quotes) and Kids[i] its value.
type Node struct {
	Start, End int
	Kind       byte // '{', '[', '"', '0' (number), 'l' (true, false, null)
	Keys       [][2]int
	Kids       []*Node
}

// Spans parses the (valid) JSON text s into spans; nil if it is not valid as far as this
// simple parser checks.
func Spans(s string) *Node {
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
	var value func() *Node
	value = func() *Node {
		ws()
		if i >= len(s) {
			return nil
		}
		n := &Node{Start: i, Kind: s[i]}
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
				n.End = i
				return n
			}
			for {
				if n.Kind == '{' {
					ws()
					k := i
					if i >= len(s) || s[i] != '"' || !str() {
						return nil
					}
					n.Keys = append(n.Keys, [2]int{k, i})
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
				n.Kids = append(n.Kids, kid)
				ws()
				if i < len(s) && s[i] == ',' {
					i++
					continue
				}
				if i < len(s) && s[i] == closing {
					i++
					n.End = i
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
			if c := s[n.Start]; c == '-' || '0' <= c && c <= '9' {
				n.Kind = '0'
			} else {
				n.Kind = 'l'
			}
		}
		n.End = i
		return n
	}
	root := value()
	if ws(); root == nil || i != len(s) {
		return nil
	}
	return root
}

func (n *Node) Container() bool { return n.Kind == '{' || n.Kind == '[' }

// lead is where member i starts: its key, or an array's element.
func (n *Node) Lead(i int) int {
	if n.Kind == '{' {
		return n.Keys[i][0]
	}
	return n.Kids[i].Start
}

// MiniJSON is s with every collection (an object or array whose members are all objects or
// arrays, nested at least minDepth deep) cut to its first keep members, all other bytes kept.
// s itself when it is not JSON.
func MiniJSON(s string, keep, minDepth int) string {
	root := Spans(s)
	if root == nil {
		return s
	}
	var b strings.Builder
	var render func(n *Node, depth int)
	render = func(n *Node, depth int) {
		if !n.Container() || len(n.Kids) == 0 {
			b.WriteString(s[n.Start:n.End])
			return
		}
		k := len(n.Kids)
		if k > keep && depth >= minDepth {
			cut := true
			for _, c := range n.Kids {
				cut = cut && c.Container()
			}
			if cut {
				k = keep
			}
		}
		b.WriteString(s[n.Start:n.Lead(0)])
		for i := 0; i < k; i++ {
			if i > 0 {
				b.WriteString(s[n.Kids[i-1].End:n.Lead(i)])
			}
			b.WriteString(s[n.Lead(i):n.Kids[i].Start])
			render(n.Kids[i], depth+1)
		}
		b.WriteString(s[n.Kids[len(n.Kids)-1].End:n.End])
	}
	b.WriteString(s[:root.Start])
	render(root, 0)
	b.WriteString(s[root.End:])
	return b.String()
}

// TextVariants are s with CRLF line ends, trailing spaces, cut mid-way (at a quarter, a half,
// three quarters, one byte short), and the empty output.
func TextVariants(s string) []string {
	v := []string{"", strings.ReplaceAll(s, "\n", "\r\n"), strings.ReplaceAll(s, "\n", "  \n"), s + " ", s + "x"}
	for _, n := range []int{len(s) / 4, len(s) / 2, len(s) * 3 / 4, len(s) - 1} {
		if n > 0 {
			v = append(v, s[:n])
		}
	}
	return v
}

// JSONVariants are TextVariants of the JSON text s plus, for the first member of each distinct
// key (at most maxKeys of them, spread over the document), s with that member edited: the key's case flipped, the key given twice
// (before with another value, after with null), the value null, a string value escaped
// (\u00e9, \", \/, a letter as \u00XX, the same text), accented, a number or digit string
// spelled with an exponent, leading zeros, a sign, a fraction or too many digits, a container
// emptied or of the other kind.
func JSONVariants(s string, maxKeys int) []string {
	v := TextVariants(s)
	root := Spans(s)
	if root == nil {
		return v
	}
	edit := func(from, to int, with string) { v = append(v, s[:from]+with+s[to:]) }
	// the first member of each distinct key, in document order
	type member struct {
		key [2]int
		val *Node
	}
	var members []member
	seen := map[string]bool{}
	var walk func(n *Node)
	walk = func(n *Node) {
		for i, kid := range n.Kids {
			if n.Kind == '{' {
				if key := s[n.Keys[i][0]:n.Keys[i][1]]; !seen[key] {
					seen[key] = true
					members = append(members, member{n.Keys[i], kid})
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
		if kid.Kind == '"' {
			other = `{}`
		}
		edit(ks[0], ks[0], key+":"+other+",")
		edit(kid.End, kid.End, ","+key+":null")
		editValue(s, kid, edit)
	}
	return v
}

func editValue(s string, n *Node, edit func(from, to int, with string)) {
	text := s[n.Start:n.End]
	edit(n.Start, n.End, "null")
	switch n.Kind {
	case '"':
		body := text[1 : len(text)-1]
		for _, e := range []string{`"\u00e9` + body + `"`, `"` + body + `\""`, `"` + body + `\/"`, `"é` + body + `"`, `"` + body + "\xff\"", `"` + body + ` "`} {
			edit(n.Start, n.End, e)
		}
		if body != "" && body[0] < utf8.RuneSelf && body[0] != '\\' {
			edit(n.Start+1, n.Start+2, `\u00`+strings.ToLower(hex2(body[0])))
		}
		if j := strings.IndexByte(body, '/'); j >= 0 {
			edit(n.Start+1+j, n.Start+2+j, `\/`)
		}
		if body != "" && strings.Trim(body, "0123456789") == "" {
			for _, e := range []string{`"1e3"`, `"0` + body + `"`, `"-` + body + `"`, `"+` + body + `"`, `"` + body + `.0"`, `"99999999999999999999"`} {
				edit(n.Start, n.End, e)
			}
		}
		edit(n.Start, n.End, "5")
	case '0':
		for _, e := range []string{"1e3", "1E+2", "0" + text, "-" + text, "-0", text + ".0", "99999999999999999999", `"` + text + `"`} {
			edit(n.Start, n.End, e)
		}
	case '{':
		edit(n.Start, n.End, "{}")
		edit(n.Start, n.End, "[]")
	case '[':
		edit(n.Start, n.End, "[]")
		edit(n.Start, n.End, "{}")
		edit(n.Start, n.End, "[null]")
	case 'l':
		edit(n.Start, n.End, `"`+text+`"`)
	}
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// Add adds the seeds to f, shortest first (ties in the order given), once each: the
// fuzzer's first rounds go to the small ones.
func Add(f *testing.F, seeds ...string) {
	sort.SliceStable(seeds, func(a, b int) bool { return len(seeds[a]) < len(seeds[b]) })
	seen := map[string]bool{}
	for _, s := range seeds {
		if !seen[s] {
			seen[s] = true
			f.Add(s)
		}
	}
}

// Minis are the miniatures of cmd's recorded replies in scenarios, as read reads them (keep
// records per collection), and the JSONVariants of the first.
func Minis(t testing.TB, read func(scenario, cmd string) (string, error), cmd string, keep int, scenarios ...string) []string {
	var seeds []string
	for _, sc := range scenarios {
		b, err := read(sc, cmd)
		if err != nil {
			continue
		}
		m := MiniJSON(b, keep, 0)
		if m != b && !json.Valid([]byte(m)) {
			t.Fatalf("%s %q: the miniature is not JSON: %q", sc, cmd, m)
		}
		if len(seeds) == 0 { // the edge cases of the first reply only: every seed costs
			seeds = append(seeds, JSONVariants(m, 25)...)
		}
		seeds = append(seeds, m, MiniJSON(b, 1, 0))
	}
	if len(seeds) == 0 {
		t.Fatalf("no recorded reply for %q", cmd)
	}
	return seeds
}

// Records are the elements of the arrays (and the members of the objects) found at path in
// the JSON text s, as written; "*" in path is every member.
func Records(s string, path ...string) []string {
	nodes := []*Node{Spans(s)}
	for _, p := range path {
		var next []*Node
		for _, n := range nodes {
			if n == nil {
				continue
			}
			for i, kid := range n.Kids {
				if p == "*" || n.Kind == '{' && s[n.Keys[i][0]:n.Keys[i][1]] == `"`+p+`"` {
					next = append(next, kid)
				}
			}
		}
		nodes = next
	}
	var out []string
	for _, n := range nodes {
		if n != nil {
			out = append(out, s[n.Start:n.End])
		}
	}
	return out
}

// FastReader is a fast path of a command's replies: whether it reads a reply (rather than
// leaving it to its fallback).
type FastReader struct {
	Cmd   string
	Reads func(string) bool
}

// CheckMinis checks each reader against its command's reply in scenario: the miniature (two
// records a collection) is at most 4 KiB and still read by the fast path (one it declined
// would fuzz only the fallback), and Minis makes at least 50 seeds of the reply.
func CheckMinis(t *testing.T, read func(scenario, cmd string) (string, error), scenario string, readers ...FastReader) {
	t.Helper()
	for _, c := range readers {
		b, err := read(scenario, c.Cmd)
		if err != nil {
			t.Fatal(err)
		}
		m := MiniJSON(b, 2, 0)
		if len(m) > 4096 || !c.Reads(m) {
			t.Errorf("%q: a miniature of %d bytes (fast path reads it: %v):\n%s", c.Cmd, len(m), c.Reads(m), m)
		}
		if n := len(Minis(t, read, c.Cmd, 2, scenario)); n < 50 {
			t.Errorf("%q: %d seeds", c.Cmd, n)
		}
	}
}
