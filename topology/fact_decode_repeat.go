package topology

import (
	"bytes"
	"reflect"
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

// decoded are the strings and maps of one device, in the order they were decoded.
type decoded struct {
	strs []decodedString
	maps []decodedMap
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

var noneDecoded = &decoded{}

// startDevice sets up the guesses for the device in line (from the last device of its
// platform).
func (dec *planDecoder) startDevice(line []byte) {
	dec.platform = platformOf(line)
	dec.guess = dec.lastOf[string(dec.platform)]
	if dec.guess == nil {
		dec.guess = noneDecoded
	}
	if dec.cur == nil {
		dec.cur = &decoded{}
	}
	dec.cur.strs, dec.cur.maps = dec.cur.strs[:0], dec.cur.maps[:0]
}

// endDevice keeps what the device decoded as the guesses for the next one of its platform
// (also after a fallback: what was recorded was decoded right).
func (dec *planDecoder) endDevice() {
	if last := dec.lastOf[string(dec.platform)]; last != nil {
		*last, *dec.cur = *dec.cur, *last // the lists it replaces are reused
	} else {
		dec.lastOf[string(dec.platform)] = dec.cur
		dec.cur = nil
	}
	dec.guess, dec.platform = nil, nil
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
