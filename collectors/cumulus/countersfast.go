package cumulus

import "maps"

// qosCounts are the counts of one counters document by table (index in qosTables), class
// and column (index in the table's cols), with which were present.
type qosCounts struct {
	val     [3][16][8]int64
	present [3][16]uint8
}

// qosTemplate is the counters map of NVUE's usual document (every column of classes 0..7
// in all three tables) with every count 0, never changed: a port's map is its clone with the
// counts that are not 0 set. A clone copies the table rather than hashing 96 names into
// it, and most of a port's counts are 0 (its idle classes, discards, pauses).
var qosTemplate, qosFullMask = func() (map[string]int64, [3]uint8) {
	var full [3]uint8
	m := make(map[string]int64, 96)
	if len(qosTables) != 3 {
		panic("cumulus: qosCounts holds three counter tables")
	}
	for t := range qosTables {
		if len(qosTables[t].cols) > 8 {
			panic("cumulus: qosCounts holds eight columns a table")
		}
		full[t] = uint8(1<<len(qosTables[t].cols) - 1)
		for _, c := range qosTables[t].cols {
			for k := 0; k < 8; k++ {
				m[c.byClass[k]] = 0
			}
		}
	}
	return m, full
}()

// counterMap makes the counters map of the counts read.
func (q *qosCounts) counterMap() map[string]int64 {
	usual := true // every column of classes 0..7, no other class
	for t := range q.present {
		for k, bits := range q.present[t] {
			if want := qosFullMask[t]; k < 8 && bits != want || k >= 8 && bits != 0 {
				usual = false
			}
		}
	}
	var m map[string]int64
	if usual {
		m = maps.Clone(qosTemplate)
	} else {
		m = make(map[string]int64, 96)
	}
	for t := range q.present {
		cols := qosTables[t].cols
		for k := range q.present[t] {
			for c, bits := 0, q.present[t][k]; bits != 0; c, bits = c+1, bits>>1 {
				if bits&1 != 0 && (!usual || q.val[t][k][c] != 0) {
					m[cols[c].byClass[k]] = q.val[t][k][c]
				}
			}
		}
	}
	return m
}

// countersQoSFast is the first of ParseCountersQoSJSON's readers: NVUE's counters document as
// it prints it (three known tables of classes of known columns, plain digit counts), read
// by one loop over the bytes with the position in a register, no callbacks and no key
// copied. It declines anything else, which countersQoSScan (a general walk, which skips
// what it does not know) and then the decoder read: ~10 -> ~3 us a port.
func countersQoSFast(out string) (map[string]int64, bool) {
	s := out
	i := jsonWS(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, false
	}
	var q qosCounts
	var seen uint8 // tables read, by index in qosTables
	i = jsonWS(s, i+1)
	for {
		key, j, ok := jsonPlainKey(s, i)
		if !ok {
			return nil, false
		}
		ti := qosTableIndex(key)
		if ti < 0 || seen&(1<<ti) != 0 {
			return nil, false // another table is countersQoSScan's to skip
		}
		seen |= 1 << ti
		if i, ok = countersTableFast(s, j, qosTables[ti].cols, &q.val[ti], &q.present[ti]); !ok {
			return nil, false
		}
		var end bool
		if i, end, ok = afterMember(s, i); !ok {
			return nil, false
		}
		if end {
			break
		}
	}
	if jsonWS(s, i) != len(s) {
		return nil, false
	}
	m := q.counterMap()
	if len(m) == 0 {
		return nil, false
	}
	return m, true
}

// countersTableFast reads one table's object of classes, from its key's closing quote on.
func countersTableFast(s string, i int, cols []qosColumn, val *[16][8]int64, present *[16]uint8) (int, bool) {
	i, empty, ok := memberObject(s, i)
	if !ok || empty {
		return i, ok
	}
	var classes uint16
	for {
		class, j, ok := jsonPlainKey(s, i)
		if !ok {
			return 0, false
		}
		k, ok := classNumber(class)
		if !ok || classes&(1<<k) != 0 {
			return 0, false
		}
		classes |= 1 << k
		if i, ok = countersClassFast(s, j, cols, &val[k], &present[k]); !ok {
			return 0, false
		}
		var end bool
		if i, end, ok = afterMember(s, i); !ok || end {
			return i, ok
		}
	}
}

// countersClassFast reads one class's object of columns, from its key's closing quote on.
func countersClassFast(s string, i int, cols []qosColumn, val *[8]int64, present *uint8) (int, bool) {
	i, empty, ok := memberObject(s, i)
	if !ok || empty {
		return i, ok
	}
	for {
		col, j, ok := jsonPlainKey(s, i)
		if !ok {
			return 0, false
		}
		if i = jsonWS(s, j); i >= len(s) || s[i] != ':' {
			return 0, false
		}
		i = jsonWS(s, i+1)
		c := qosColumnIndex(cols, col)
		if c < 0 {
			return 0, false // another column is countersQoSScan's to skip
		}
		var n int64
		if n, i, ok = jsonDigits(s, i); !ok {
			return 0, false
		}
		val[c], *present = n, *present|1<<c // a repeated column: the last one, as the decoder keeps
		var end bool
		if i, end, ok = afterMember(s, i); !ok || end {
			return i, ok
		}
	}
}

// memberObject reads, from a member key's closing quote on, the ':' and the '{' of its object
// value: next is at the first member's key, or past the '}' of an empty object.
func memberObject(s string, i int) (next int, empty, ok bool) {
	if i = jsonWS(s, i); i >= len(s) || s[i] != ':' {
		return 0, false, false
	}
	if i = jsonWS(s, i+1); i >= len(s) || s[i] != '{' {
		return 0, false, false
	}
	if i = jsonWS(s, i+1); i < len(s) && s[i] == '}' {
		return i + 1, true, true
	}
	return i, false, true
}

// afterMember reads what follows an object member's value at i: '}' ends the object (next is
// past it); ',' leads to the next member (next is past it and the whitespace after).
func afterMember(s string, i int) (next int, end, ok bool) {
	if i = jsonWS(s, i); i < len(s) {
		switch s[i] {
		case '}':
			return i + 1, true, true
		case ',':
			return jsonWS(s, i+1), false, true
		}
	}
	return 0, false, false
}

// jsonWS skips JSON whitespace from i.
func jsonWS(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\n', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// jsonPlainKey reads the string at i when it is printable ASCII without escapes (declining
// all else), returning it and the index after its closing quote.
func jsonPlainKey(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", 0, false
		}
	}
	return "", 0, false
}

// jsonDigits reads a count at i: a JSON number that is plain digits ("0" or no leading zero),
// or a string of digits, of at most 18 digits (no overflow); it declines everything else.
func jsonDigits(s string, i int) (int64, int, bool) {
	quoted := i < len(s) && s[i] == '"'
	if quoted {
		i++
	}
	start := i
	var n int64
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		n = n*10 + int64(s[i]-'0')
		i++
	}
	d := i - start
	if d == 0 || d > 18 {
		return 0, 0, false
	}
	if quoted {
		if i >= len(s) || s[i] != '"' {
			return 0, 0, false
		}
		return n, i + 1, true
	}
	if s[start] == '0' && d > 1 {
		return 0, 0, false // not JSON
	}
	if i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') {
		return 0, 0, false // a fraction or exponent: the decoder's to refuse
	}
	return n, i, true
}
