// Package jsonscan walks a JSON document in place, without reflection or a map per object:
// the fast path of parsers whose switch answers are large and regular (a 240-port leaf sends
// hundreds of them), where encoding/json's map[string]json.RawMessage decoding was most of a
// collector's CPU.
//
// It is a fast path only. A Scanner validates what it walks as encoding/json does, but it
// declines (returns false) rather than decode anything unusual: escapes in keys or in the
// strings it returns, keys that are not valid UTF-8, nesting deeper than maxDepth. A parser
// falls back to its encoding/json form whenever the scanner declines or the document is not
// the shape it expects, so facts and error texts stay what encoding/json makes of them.
package jsonscan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting (encoding/json allows 10,000 before it errors): deeper documents
// are left to the fallback.
const maxDepth = 512

// Scanner reads one JSON document from a string; its methods consume one value each.
type Scanner struct {
	s     string
	i     int
	depth int
}

// New scans s from its start.
func New(s string) *Scanner { return &Scanner{s: s} }

func (sc *Scanner) ws() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// Peek is the first byte of the next value (0 at the end).
func (sc *Scanner) Peek() byte {
	sc.ws()
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

// End says whether only whitespace is left: a whole document was read, as json.Unmarshal
// requires.
func (sc *Scanner) End() bool {
	sc.ws()
	return sc.i == len(sc.s)
}

// Object walks the object at the scanner, calling member with each key and the scanner at
// its value; member must consume the value and return true, or return false to stop. Keys are
// the raw text between the quotes: Object declines a key with an escape or invalid UTF-8.
func (sc *Scanner) Object(member func(key string) bool) bool {
	return sc.object(member, false)
}

// object is Object; a skipping walk validates keys as strings instead of declining escapes.
func (sc *Scanner) object(member func(key string) bool, skipping bool) bool {
	if sc.Peek() != '{' {
		return false
	}
	if sc.depth++; sc.depth > maxDepth {
		return false
	}
	sc.i++
	if sc.Peek() == '}' {
		sc.i++
		sc.depth--
		return true
	}
	for {
		if sc.Peek() != '"' {
			return false
		}
		var ok bool
		var key string
		if skipping {
			if !sc.skipString() {
				return false
			}
		} else if key, ok = sc.plainString(); !ok {
			return false
		}
		if sc.Peek() != ':' {
			return false
		}
		sc.i++
		if !member(key) {
			return false
		}
		switch sc.Peek() {
		case ',':
			sc.i++
		case '}':
			sc.i++
			sc.depth--
			return true
		default:
			return false
		}
	}
}

// Struct walks the object at the scanner as encoding/json decodes it into a struct whose
// fields are named names: read is called with the index of each member that names one
// exactly, at most once per field; other members are skipped. It declines a member that
// encoding/json would match to a field only by folding its case (or, with a non-ASCII name,
// by its wider folding) and a field given twice (encoding/json merges or overwrites).
// names holds at most 64 fields.
func (sc *Scanner) Struct(names []string, read func(field int) bool) bool {
	if sc.Peek() != '{' {
		return false
	}
	var seen uint64
	return sc.Object(func(key string) bool {
		for f, name := range names {
			if key == name {
				if seen&(1<<f) != 0 {
					return false
				}
				seen |= 1 << f
				return read(f)
			}
		}
		for i := 0; i < len(key); i++ {
			if key[i] >= utf8.RuneSelf {
				return false
			}
		}
		for _, name := range names {
			if strings.EqualFold(key, name) {
				return false
			}
		}
		return sc.Skip()
	})
}

// Array walks the array at the scanner, calling elem with the scanner at each element; elem
// must consume it and return true, or return false to stop.
func (sc *Scanner) Array(elem func() bool) bool {
	if sc.Peek() != '[' {
		return false
	}
	if sc.depth++; sc.depth > maxDepth {
		return false
	}
	sc.i++
	if sc.Peek() == ']' {
		sc.i++
		sc.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch sc.Peek() {
		case ',':
			sc.i++
		case ']':
			sc.i++
			sc.depth--
			return true
		default:
			return false
		}
	}
}

// Str is the string value at the scanner, declined when it has an escape or invalid UTF-8
// (which encoding/json would decode or replace).
func (sc *Scanner) Str() (string, bool) {
	if sc.Peek() != '"' {
		return "", false
	}
	return sc.plainString()
}

// plainString reads the string at sc.i (its opening quote) that has no escape, control
// character or invalid UTF-8.
func (sc *Scanner) plainString() (string, bool) {
	start := sc.i + 1
	ascii := true
	for j := start; j < len(sc.s); j++ {
		switch c := sc.s[j]; {
		case c == '"':
			v := sc.s[start:j]
			if !ascii && !utf8.ValidString(v) {
				return "", false
			}
			sc.i = j + 1
			return v, true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// Number is the number token at the scanner, as written ("12", "-1.5e3").
func (sc *Scanner) Number() (string, bool) {
	if sc.Peek() == 0 {
		return "", false
	}
	start := sc.i
	if !sc.number() {
		return "", false
	}
	return sc.s[start:sc.i], true
}

// Int64 is the number at the scanner as encoding/json stores it in an integer field: a
// whole number in range ("1.0", "1e3" and overflows are its errors, so declined).
func (sc *Scanner) Int64() (int64, bool) {
	tok, ok := sc.Number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	return n, err == nil
}

// Raw skips the value at the scanner and returns its text, as a json.RawMessage holds it.
func (sc *Scanner) Raw() (string, bool) {
	if sc.Peek() == 0 {
		return "", false
	}
	start := sc.i
	if !sc.Skip() {
		return "", false
	}
	return sc.s[start:sc.i], true
}

// Skip consumes the value at the scanner, validating it as encoding/json would: escapes,
// control characters, the number grammar and the literals. Invalid UTF-8 in a skipped string
// is valid JSON (encoding/json replaces it).
func (sc *Scanner) Skip() bool {
	switch sc.Peek() {
	case '{':
		return sc.object(func(string) bool { return sc.Skip() }, true)
	case '[':
		return sc.Array(sc.Skip)
	case '"':
		return sc.skipString()
	case 't':
		return sc.literal("true")
	case 'f':
		return sc.literal("false")
	case 'n':
		return sc.literal("null")
	default:
		return sc.number()
	}
}

func (sc *Scanner) literal(lit string) bool {
	if !strings.HasPrefix(sc.s[sc.i:], lit) {
		return false
	}
	sc.i += len(lit)
	return true
}

func (sc *Scanner) skipString() bool {
	for j := sc.i + 1; j < len(sc.s); j++ {
		switch c := sc.s[j]; {
		case c == '"':
			sc.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			j++
			if j >= len(sc.s) {
				return false
			}
			switch sc.s[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(sc.s) {
					return false
				}
				for _, h := range []byte(sc.s[j+1 : j+5]) {
					if !isHex(h) {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// number consumes -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at sc.i.
func (sc *Scanner) number() bool {
	s, i := sc.s, sc.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	sc.i = i
	return true
}

func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
