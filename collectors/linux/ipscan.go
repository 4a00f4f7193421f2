package linux

import (
	"encoding/json"
	"strings"
)

// The ip excerpts decoded `ip -j addr` a second time (ParseIPAddr had already), into a map of
// every field of every netdev: 15% of an 8-rail host's collection CPU. ParseIPAddr has
// validated the text by then, so the excerpts now find their few fields with a byte scan
// and keep them as substrings; a text the scan does not expect (a key with an escape, an
// element neither an object nor null) is decoded as before.

// ipExcerptKeys are the fields an ip excerpt shows, in the order it shows them.
var ipExcerptKeys = [...]string{"ifname", "link", "mtu", "operstate", "master", "linkinfo", "addr_info"}

// ipFields are one netdev object's ipExcerptKeys values as raw JSON, set when present.
type ipFields struct {
	v  [len(ipExcerptKeys)]string
	ok [len(ipExcerptKeys)]bool
}

// ifname is the object's ifname as encoding/json decodes it into a string; false when it
// lacks one or it is not a string. A plain ASCII string is its text between the quotes
// (decoding each netdev's name was two allocations).
func (f *ipFields) ifname() (string, bool) {
	for i, key := range ipExcerptKeys {
		if key != "ifname" || !f.ok[i] {
			continue
		}
		v := f.v[i]
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && plainASCII(v[1:len(v)-1]) {
			return v[1 : len(v)-1], true
		}
		var n string
		return n, json.Unmarshal([]byte(v), &n) == nil
	}
	return "", false
}

// plainASCII is printable ASCII without a quote or backslash: a JSON string's text as is.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// ipFieldObjects are the objects of ip's JSON array as ipFields, scanned or else decoded.
func ipFieldObjects(text string) []ipFields {
	if objs, ok := scanIPObjects(text); ok {
		return objs
	}
	return decodeIPFields(text)
}

// decodeIPFields is ipFieldObjects by encoding/json: the fallback, and the scan's reference.
func decodeIPFields(text string) []ipFields {
	var out []ipFields
	for _, o := range ipObjects(text) {
		var f ipFields
		for i, k := range ipExcerptKeys {
			if v, ok := o[k]; ok {
				f.v[i], f.ok[i] = string(v), true
			}
		}
		out = append(out, f)
	}
	return out
}

// scanIPObjects reads a JSON array of objects (or nulls) the way decoding it into
// []map[string]json.RawMessage would, for the ipExcerptKeys only (the last of a repeated
// key, as the map keeps); false when the text is not such an array or a key has an escape.
func scanIPObjects(s string) ([]ipFields, bool) {
	var out []ipFields
	ok := scanObjects(s, ipExcerptKeys[:], func(vals []string) {
		var f ipFields
		for k, v := range vals {
			f.v[k], f.ok[k] = v, v != ""
		}
		out = append(out, f)
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// scanObjects reads s, a JSON array of objects (or nulls), calling elem for each with the
// raw values of keys in it ("" for a key it lacks; vals is reused), as decoding into
// []map[string]json.RawMessage would see them; false when s is not such an array or a key
// has an escape. Every step advances i, so the loops end with the text.
func scanObjects(s string, keys []string, elem func(vals []string)) bool {
	vals := make([]string, len(keys))
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return false
	}
	i = skipJSONSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return skipJSONSpace(s, i+1) == len(s)
	}
	for i < len(s) {
		clear(vals)
		switch {
		case strings.HasPrefix(s[i:], "null"):
			i += len("null")
		case s[i] == '{':
			var ok bool
			if i, ok = scanObject(s, i, keys, vals); !ok {
				return false
			}
		default:
			return false
		}
		elem(vals)
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case ',':
			i = skipJSONSpace(s, i+1)
		case ']':
			return skipJSONSpace(s, i+1) == len(s)
		default:
			return false
		}
	}
	return false
}

// scanObject reads the object at s[i] == '{', setting vals[k] to the raw value of keys[k],
// and returns the index after it.
func scanObject(s string, i int, keys, vals []string) (int, bool) {
	i = skipJSONSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	for i < len(s) {
		if s[i] != '"' {
			return 0, false
		}
		// The key's closing quote, declined when a backslash comes first (IndexAny built its
		// byte set for every key: a third of the scan).
		end := strings.IndexByte(s[i+1:], '"')
		if end < 0 || strings.IndexByte(s[i+1:i+1+end], '\\') >= 0 {
			return 0, false // an escaped key: leave it to the decoder
		}
		key := s[i+1 : i+1+end]
		i = skipJSONSpace(s, i+1+end+1)
		if i >= len(s) || s[i] != ':' {
			return 0, false
		}
		i = skipJSONSpace(s, i+1)
		start := i
		var ok bool
		if i, ok = skipJSONValue(s, i); !ok {
			return 0, false
		}
		for k, want := range keys {
			if key == want {
				vals[k] = s[start:i]
			}
		}
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return 0, false
		}
		switch s[i] {
		case ',':
			i = skipJSONSpace(s, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// skipJSONValue returns the index after the value at s[i] of a valid JSON text.
func skipJSONValue(s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch s[i] {
	case '"':
		return skipJSONString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				var ok bool
				if i, ok = skipJSONString(s, i); !ok {
					return 0, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	default:
		j := i
		for j < len(s) && !valueEnd(s[j]) {
			j++
		}
		return j, j > i
	}
}

// valueEnd is a byte that ends a number or literal: ",}] \t\r\n".
func valueEnd(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// skipJSONString returns the index after the string at s[i] == '"'.
func skipJSONString(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
