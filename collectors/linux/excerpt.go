package linux

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Excerpts are the few verbatim lines that decided a fact, so a report can show its evidence
// without the whole transcript.

// linesWhere keeps the lines of text for which keep returns true.
func linesWhere(text string, keep func(line string) bool) string {
	var out []string
	// Cut line by line rather than Split: the GID dump is 1,500 lines a host, read per port.
	for more := true; more; {
		var l string
		l, text, more = strings.Cut(text, "\n")
		if keep(l) && strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// ipObjects are the netdev objects of `ip -j addr`, each by its field names; nil when the
// text is not a JSON array of objects.
func ipObjects(jsonText string) []map[string]json.RawMessage {
	var objs []map[string]json.RawMessage
	if json.Unmarshal([]byte(jsonText), &objs) != nil {
		return nil
	}
	return objs
}

// excerpt is the excerpt of one netdev object: its fields compacted, addr_info trimmed, in
// ipExcerptKeys' order (a field that is not valid JSON left out). f must come from a text
// encoding/json accepts, as ParseIPAddr's are: a value without a blank byte is then its own
// compaction and is copied as it is. Built in one buffer: a builder, a bytes.Buffer and a
// quoted key per field (with json.Compact's scan) were 10% of an 8-rail host's collection.
func (f *ipFields) excerpt() string {
	var buf [512]byte
	b := append(buf[:0], '{')
	first := true
	for i, k := range ipExcerptKeys {
		if !f.ok[i] {
			continue
		}
		mark := len(b)
		if !first {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...) // a plain name: strconv.Quote adds only the quotes
		b = append(b, '"', ':')
		start := len(b)
		if k == "addr_info" {
			b = appendAddrInfo(b, f.v[i])
		} else {
			b = append(b, f.v[i]...)
		}
		var ok bool
		if b, ok = compactTail(b, start); !ok {
			b = b[:mark]
			continue
		}
		first = false
	}
	return string(append(b, '}'))
}

// compactTail compacts b[start:], a JSON value, as json.Compact does (false, and b cut at
// start, when it is not valid); without a blank byte it is left as it is (see excerpt).
func compactTail(b []byte, start int) ([]byte, bool) {
	if !bytes.ContainsAny(b[start:], " \t\r\n") {
		return b, true
	}
	var c bytes.Buffer
	if json.Compact(&c, b[start:]) != nil {
		return b[:start], false
	}
	return append(b[:start], c.Bytes()...), true
}

// addrKeys are the fields of an address an ip excerpt keeps, in the order it shows them.
var addrKeys = [...]string{"family", "local", "prefixlen", "scope"}

// appendAddrInfo appends raw, an addr_info list, trimmed to family, local, prefixlen and
// scope of each address: scanned as the netdev objects are (decoding it was a third of an
// 8-rail host's ip excerpts), decoded when the scan declines it.
func appendAddrInfo(b []byte, raw string) []byte {
	start := len(b)
	b = append(b, '[')
	n := 0
	if scanObjects(raw, addrKeys[:], func(vals []string) {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendAddrPart(b, vals)
	}) {
		return append(b, ']')
	}
	return append(b[:start], decodeAddrInfo(json.RawMessage(raw))...)
}

// decodeAddrInfo is appendAddrInfo's trimmed list by encoding/json: the fallback, and the
// scan's reference.
func decodeAddrInfo(raw json.RawMessage) json.RawMessage {
	var addrs []map[string]json.RawMessage
	if json.Unmarshal(raw, &addrs) != nil {
		return raw
	}
	b := append(make([]byte, 0, len(raw)), '[')
	vals := make([]string, len(addrKeys))
	for i, a := range addrs {
		for k, key := range addrKeys {
			vals[k] = string(a[key])
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendAddrPart(b, vals)
	}
	return append(b, ']')
}

// appendAddrPart appends one address of the excerpt from the raw values of addrKeys (""
// when absent).
func appendAddrPart(b []byte, vals []string) []byte {
	b = append(b, '{')
	first := true
	for k, v := range vals {
		if v == "" {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, addrKeys[k]...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// counterWords are what a counter's name holds when it matters for a lossless diagnosis.
var counterWords = [...]string{"pause", "discard", "cnp", "ecn", "out_of_sequence", "retrans", "timeout"}

// counterWordAt is 1 + the index in counterWords of the word starting with each byte, 0 for
// none (the words' first letters differ).
var counterWordAt = func() (t [256]uint8) {
	for i, w := range counterWords {
		if t[w[0]] != 0 {
			panic("two counter words start with " + w[:1])
		}
		t[w[0]] = uint8(i + 1)
	}
	return t
}()

// hasCounterWord reports whether s holds a counter word, in one pass that looks further only
// at a word's first two letters: the hw_counters paths are long and full of the words' first
// letters, and trying a whole word at each of them was 8% of an 8-rail host's collection
// instructions. The counter excerpt (the lines holding a word, as linesWhere keeps them) is
// cut by the counter parsers as they read each line, which search a row's name only.
func hasCounterWord(s string) bool {
	for i := 0; i < len(s); i++ {
		k := counterWordAt[s[i]]
		if k == 0 {
			continue
		}
		w := counterWords[k-1]
		if len(s)-i >= len(w) && s[i+1] == w[1] && s[i:i+len(w)] == w {
			return true
		}
	}
	return false
}
