package topology

import (
	"bytes"
	"reflect"
	"strings"
	"unsafe"
)

// Devices of one platform repeat each other: the same commands, statuses, excerpts and QoS
// maps, in the same order (every host of the 10,000-device lab has the same ports and
// facts; every leaf of a platform the same ports). So the decoder remembers the strings and
// maps it decoded from the last device of each platform, in the order it read them, and
// first compares the text at hand with the one at the same place there: the same JSON text
// is the same value, found with one comparison of bytes already in cache, without finding
// the string's closing quote, hashing it, or probing the intern table (whose ~100,000
// strings a worker no longer finds in cache: a probe was ~1 cache miss, ~0.3 s of check's
// CPU at 10,000 devices in matching a group's control word alone). 85% of the strings
// (73% on hosts, whose addresses, MACs, GIDs and counter excerpts are their own; 92% on
// switches) and most maps are found so; the rest go to the intern tables as before.
// BenchmarkDecodeDevices: CPU 654 -> 426 ms an op (-35%, 10 interleaved runs on a busy
// machine), for 8% more bytes allocated (the intern table's entries hold the raw text
// beside the string, and grow with it). The scale notes in
// bench/check_snapshot_test.go record an earlier try at comparing with the last device of
// the platform, 66% hits and no faster within noise; places here are counted by the
// strings and maps decoded, those the tables answer included.
//
// A wrong guess costs a length check, or a comparison that stops at the first differing
// byte. A device with a fact more or less than the last one of its platform shifts the
// guesses after it: they miss, and the tables answer.
//
// Whole facts repeat too: 80% of the fact bytes of the 10k lab snapshot are the text of
// the fact at the same place in the last device of the platform (96% on switches, whose
// ports of one index carry the same configuration on every leaf; 53% on hosts). So each
// Fact is first compared, whole, with that one's text (kept in a copy of the last line)
// and, when equal, copied from that device's value instead of decoded: one comparison of
// bytes where decoding read every key, string and number. Its lists and maps are then
// shared, as decoded maps already were: no reader writes to a decoded fact. Then
// BenchmarkDecodeDevices (10 interleaved runs): CPU 417 -> 342 ms an op (-18%), 34% fewer
// allocations, 9% more bytes (line copies, see platformDecoded); copying each line is ~3%
// of decoding. Deciding whether a fact may be copied (not decoded into before) is kept by
// the decoders, never read from the destination (see planDecoder.reused).
//
// Tried and dropped, no faster within noise: not interning the strings of places whose last
// string was new to the tables (the table shrank from 100,000 to 8,000 strings, but
// addresses and GIDs repeated within a host were then allocated once per place: 37% more
// allocations); guessing host counter names by place (the counter-name map is small and
// hot); not interning long escaped excerpts (a third of those reaching the table are found
// there: skipping them would duplicate ~11 MB of strings a worker).

// decoded are the strings, maps and facts of one device, in the order they were decoded.
type decoded struct {
	strs  []decodedString
	maps  []decodedMap
	facts []decodedFact
}

// platformDecoded are the last device of a platform's and the one being decoded (their lists
// swapped and reused), and a copy of the last one's line, its facts' texts. The line being
// decoded replaces it once done: one copy a platform, not two (they were 48 of the ~400 MB
// that reading the 10k snapshot allocates, grown to each platform's longest line).
type platformDecoded struct {
	last, next decoded
	line       []byte
}

type decodedFact struct {
	t          reflect.Type
	start, end int            // its text, in its device's line
	val        unsafe.Pointer // the value decoded (nil: not one to copy)
	s0, s1     int            // the strings decoded within it, in strs
	m0, m1     int            // the maps, in maps
}

type decodedString struct {
	raw string // the JSON text between the quotes: val's own bytes when it has no escape
	val string
}

type decodedMap struct {
	t   reflect.Type
	raw string         // its JSON text, whole
	m   unsafe.Pointer // the map (a map value is one pointer)
}

// startDevice sets up the guesses for the device in line (from the last device of its
// platform).
func (dec *planDecoder) startDevice(line []byte) {
	plat := platformOf(line)
	pd := dec.lastOf[string(plat)]
	if pd == nil {
		pd = &platformDecoded{}
		dec.lastOf[string(plat)] = pd
	}
	dec.platform = pd
	dec.guess, dec.cur = &pd.last, &pd.next
	dec.cur.strs, dec.cur.maps, dec.cur.facts = dec.cur.strs[:0], dec.cur.maps[:0], dec.cur.facts[:0]
}

// endDevice keeps what the device in line decoded as the guesses for the next one of its
// platform (also after a fallback: what was recorded was decoded right).
func (dec *planDecoder) endDevice(line []byte) {
	pd := dec.platform
	pd.line = append(pd.line[:0], line...)
	pd.last, pd.next = pd.next, pd.last
	dec.guess, dec.cur, dec.platform = nil, nil, nil
}

// platformOf finds the platform a device line names near its start ("" if it does not).
func platformOf(line []byte) []byte {
	const key = `"platform":"`
	head := line[:min(len(line), 256)]
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return nil
	}
	rest := head[i+len(key):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return nil
}

// guessString returns the string whose text starts at start (after its opening quote) if it
// is the one at the same place in the last device of the platform.
func (dec *planDecoder) guessString(start int) (string, bool) {
	k := len(dec.cur.strs)
	if k >= len(dec.guess.strs) {
		return "", false
	}
	g := dec.guess.strs[k]
	end := start + len(g.raw)
	// The raw text of a string decoded before holds no unescaped quote and does not end in
	// an escaping backslash, so a quote right after it closes this string.
	if end >= len(dec.b) || dec.b[end] != '"' || string(dec.b[start:end]) != g.raw {
		return "", false
	}
	dec.i = end + 1
	dec.cur.strs = append(dec.cur.strs, g)
	return g.val, true
}

// guessMap sets *p to the map whose text starts at dec.i if it is the one at the same
// place in the last device of the platform. A JSON value's text decides where it ends, so
// the whole text of the old map at dec.i is this map's.
func (dec *planDecoder) guessMap(t reflect.Type, p unsafe.Pointer) bool {
	k := len(dec.cur.maps)
	if k >= len(dec.guess.maps) {
		return false
	}
	g := dec.guess.maps[k]
	end := dec.i + len(g.raw)
	if g.t != t || end > len(dec.b) || string(dec.b[dec.i:end]) != g.raw {
		return false
	}
	dec.i = end
	*(*unsafe.Pointer)(p) = g.m
	dec.cur.maps = append(dec.cur.maps, g)
	return true
}

// isFact says whether t is a Fact[T].
func isFact(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == reflect.TypeFor[Evidence]().PkgPath() && strings.HasPrefix(t.Name(), "Fact[")
}

// factGuess decodes a fact of type t through inner, or copies it from the same place in the
// last device of the platform when its text is the same.
func factGuess(t reflect.Type, inner *plan) decodeFunc {
	return func(dec *planDecoder, p unsafe.Pointer) error {
		dec.ws()
		cur, guess := dec.cur, dec.guess
		k := len(cur.facts)
		// Decoding into a fact decoded before (a repeated key) merges into it, as
		// encoding/json does: that is neither a copy nor what a fresh decoding of the text
		// gives, to be copied later.
		fresh := dec.reused == 0
		// A value decoded into scratch (a list element, a map value) does not stay there.
		stays := fresh && dec.unstable == 0
		if fresh && k < len(guess.facts) {
			g := &guess.facts[k]
			end := dec.i + g.end - g.start
			if g.t == t && g.val != nil && end <= len(dec.b) && string(dec.b[dec.i:end]) == string(dec.platform.line[g.start:g.end]) {
				reflect.NewAt(t, p).Elem().Set(reflect.NewAt(t, g.val).Elem())
				// What decoding it would have recorded, so the places after it stay aligned.
				s0, m0 := len(cur.strs), len(cur.maps)
				cur.strs = append(cur.strs, guess.strs[g.s0:g.s1]...)
				cur.maps = append(cur.maps, guess.maps[g.m0:g.m1]...)
				f := decodedFact{t: t, start: dec.i, end: end, s0: s0, s1: len(cur.strs), m0: m0, m1: len(cur.maps)}
				if stays {
					f.val = p
				}
				cur.facts = append(cur.facts, f)
				dec.i = end
				return nil
			}
		}
		f := decodedFact{t: t, start: dec.i, s0: len(cur.strs), m0: len(cur.maps)}
		cur.facts = append(cur.facts, decodedFact{}) // its place, before any fact within it
		if err := inner.decode(dec, p); err != nil {
			return err
		}
		f.end, f.s1, f.m1 = dec.i, len(cur.strs), len(cur.maps)
		if stays {
			f.val = p
		}
		cur.facts[k] = f
		return nil
	}
}
