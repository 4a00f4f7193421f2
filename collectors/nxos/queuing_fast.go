package nxos

import (
	"strconv"
	"strings"
)

// fastQueuingJSON is scanQueuingJSON for the reply as NX-OS prints it over SSH: compact (no
// whitespace), every value read a string of printable ASCII without escapes, the members a
// row reads each once, dir and if_name_str before the row's table, eq-qosgrp before its
// entries, the other members strings. Anything else is declined, to scanQueuingJSON and the
// tree (FuzzQueuingFastAgreesWithTree). Knowing the shape, it tests a byte where the scan
// skips whitespace, peeks and dispatches: a 248-port leaf's 2 MB reply, 5 ms -> 1.8 ms.
func fastQueuingJSON(out string) (map[string]QueueCounters, bool) {
	f := &queuingFast{compactJSON: compactJSON{s: out}, res: map[string]QueueCounters{}}
	table := false
	ok := f.object(func(key string) bool {
		switch key {
		case "TABLE_module":
			if table {
				return false
			}
			table = true
			return f.table("ROW_module", f.module)
		case "output": // the NX-API envelope
			return false
		}
		return f.skip()
	})
	if !ok || !table || len(f.res) == 0 || strings.TrimLeft(out[f.i:], " \t\r\n") != "" {
		return nil, false
	}
	return f.res, true
}

// compactJSON reads JSON printed without whitespace, every value a string or an object or
// array of them: the fast paths of NX-OS's large replies.
type compactJSON struct {
	s string
	i int
}

type queuingFast struct {
	compactJSON
	res   map[string]QueueCounters
	names []statNames // counter names by statistic and unit, in the order met
	last  int         // the index in names of the last pair found
	hint  int         // the size of the last port's counters, for the next one's map
}

type statNames struct {
	kind, units string
	names       *[8]string // nil: not a counter
}

func (f *compactJSON) next(b byte) bool {
	if f.i < len(f.s) && f.s[f.i] == b {
		f.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes, eight bytes at a time while none
// of them ends it or is refused (a byte at a time, it was a third of the scan).
func (f *compactJSON) str() (string, bool) {
	s := f.s
	if f.i >= len(s) || s[f.i] != '"' {
		return "", false
	}
	start := f.i + 1
	j := start
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; j+8 <= len(s); j += 8 {
		w := uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
			uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
		quote, backslash := w^('"'*ones), w^('\\'*ones)
		stop := (quote-ones)&^quote | (backslash-ones)&^backslash | // a byte '"' or '\\'
			(w-0x20*ones)&^w | // a byte below 0x20
			(w + ones) | w // a byte 0x7f or above
		if stop&highs != 0 {
			break
		}
	}
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			f.i = j + 1
			return s[start:j], true
		case c < 0x20 || c == '\\' || c >= 0x7f:
			return "", false
		}
	}
	return "", false
}

// skip reads the value of a member not read: a string.
func (f *compactJSON) skip() bool {
	_, ok := f.str()
	return ok
}

// object reads a non-empty object, member reading each member's value.
func (f *compactJSON) object(member func(key string) bool) bool {
	if !f.next('{') {
		return false
	}
	for {
		key, ok := f.str()
		if !ok || !f.next(':') || !member(key) {
			return false
		}
		if !f.next(',') {
			return f.next('}')
		}
	}
}

// rows reads a row, or an array of them.
func (f *compactJSON) rows(row func() bool) bool {
	if !f.next('[') {
		return row()
	}
	if f.next(']') {
		return true
	}
	for {
		if !row() {
			return false
		}
		if !f.next(',') {
			return f.next(']')
		}
	}
}

// member reads an object that has key, once: read reads its value.
func (f *compactJSON) member(key string, read func() bool) bool {
	seen := false
	return f.object(func(k string) bool {
		if k != key {
			return f.skip()
		}
		if seen {
			return false
		}
		seen = true
		return read()
	}) && seen
}

// table reads {"<rowKey>": a row or [rows]}.
func (f *queuingFast) table(rowKey string, row func() bool) bool {
	return f.member(rowKey, func() bool { return f.rows(row) })
}

func (f *queuingFast) module() bool {
	return f.member("TABLE_queuing_interface", func() bool { return f.table("ROW_queuing_interface", f.iface) })
}

// iface reads a ROW_queuing_interface, keeping an Egress row's counters under its name.
func (f *queuingFast) iface() bool {
	var dir, name string
	var seen uint8
	var c QueueCounters
	ok := f.object(func(key string) bool {
		var ok bool
		switch key {
		case "dir":
			if seen&1 != 0 {
				return false
			}
			seen |= 1
			dir, ok = f.str()
		case "if_name_str":
			if seen&2 != 0 {
				return false
			}
			seen |= 2
			name, ok = f.str()
		case "TABLE_qosgrp_egress_stats":
			if seen != 3 {
				return false
			}
			seen |= 4
			if strings.EqualFold(dir, "Egress") {
				c = make(QueueCounters, f.hint)
			}
			return f.table("ROW_qosgrp_egress_stats", func() bool { return f.group(c) })
		default:
			return f.skip()
		}
		return ok
	})
	if !ok || seen&3 != 3 || !strings.EqualFold(dir, "Egress") {
		return ok && seen&3 == 3
	}
	name = strings.TrimSpace(name)
	if name == "" || c == nil {
		return false
	}
	// Room for the pause and traffic counters portCounters adds to the map.
	f.hint = len(c) + 2 + len(trafficCounters)
	f.res[strings.Clone(name)] = c // the name does not keep the output alive
	return true
}

// group reads a ROW_qosgrp_egress_stats into c (nil: not kept).
func (f *queuingFast) group(c QueueCounters) bool {
	id := -1
	var seen uint8
	return f.object(func(key string) bool {
		switch key {
		case "eq-qosgrp":
			if seen != 0 {
				return false
			}
			seen = 1
			s, ok := f.str()
			if ok {
				id, ok = qosGroupOf(s)
			}
			return ok
		case "TABLE_qosgrp_egress_stats_entry":
			if seen != 1 {
				return false
			}
			seen = 3
			if id < 0 {
				c = nil // CONTROL QOS GROUP, SPAN QOS GROUP: not a data queue
			}
			return f.table("ROW_qosgrp_egress_stats_entry", func() bool { return f.entry(c, id) })
		}
		return f.skip()
	}) && seen == 3
}

// qosGroupOf reads eq-qosgrp as the tree does: -1 where number() fails or is unset (the
// group is skipped), not ok where the tree errs (out of 0-7).
func qosGroupOf(s string) (int, bool) {
	if len(s) == 1 && '0' <= s[0] && s[0] <= '7' {
		return int(s[0] - '0'), true
	}
	if s == "null" {
		return -1, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1, true
	}
	return int(v), 0 <= v && v <= 7
}

// entryLayout is the entry as NX-OS prints it, its keys compared whole where object would
// read them a byte at a time.
var entryLayout = [...]string{`{"eq-stat-type":`, `,"eq-stat-units":`, `,"eq-uc-stat-value":`, `,"eq-oobfc-uc-stat-value":`, `,"eq-mc-stat-value":`}

func (f *compactJSON) lit(l string) bool {
	if len(f.s)-f.i >= len(l) && f.s[f.i:f.i+len(l)] == l {
		f.i += len(l)
		return true
	}
	return false
}

// entry reads a ROW_qosgrp_egress_stats_entry of qos-group id into c (nil: not kept).
func (f *queuingFast) entry(c QueueCounters, id int) bool {
	var vals [len(entryLayout)]string
	start, ok := f.i, true
	for k, l := range entryLayout {
		if ok = f.lit(l); !ok {
			break
		}
		if vals[k], ok = f.str(); !ok {
			break
		}
	}
	if ok && f.next('}') {
		return f.record(c, id, vals[0], vals[1], vals[2], true)
	}
	f.i = start // another layout: member by member
	var kind, units, val string
	var seen uint8
	ok = f.object(func(key string) bool {
		var bit uint8
		var ok bool
		switch key {
		case "eq-stat-type":
			bit = 1
			kind, ok = f.str()
		case "eq-stat-units":
			bit = 2
			units, ok = f.str()
		case "eq-uc-stat-value":
			bit = 4
			val, ok = f.str()
		default:
			return f.skip()
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	return ok && seen&3 == 3 && f.record(c, id, kind, units, val, seen&4 != 0)
}

// record keeps the entry's unicast count (val, when set) in c.
func (f *queuingFast) record(c QueueCounters, id int, kind, units, val string, set bool) bool {
	if !set || val == "null" {
		return true // not set
	}
	v, ok := wholeNumber(val)
	if !ok {
		return false // number() errs: the tree's error
	}
	if c != nil {
		if names := f.counterNames(kind, units); names != nil {
			c[names[id]] = v
		}
	}
	return true
}

// wholeNumber is strconv.ParseInt(s, 10, 64), by hand for the usual short run of digits.
func wholeNumber(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	var v int64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			v, err := strconv.ParseInt(s, 10, 64)
			return v, err == nil
		}
		v = v*10 + int64(d)
	}
	return v, true
}

// counterNames are queueStat's names for a statistic and unit, one per qos-group, or nil when
// it is not a counter; made once per pair, found by comparing the few pairs met (hashing the
// pair for a map was a tenth of the scan).
func (f *queuingFast) counterNames(kind, units string) *[8]string {
	// Every group lists its statistics in one order: the pair after the last one found is
	// tried first.
	if f.last++; f.last < len(f.names) {
		if n := &f.names[f.last]; n.kind == kind && n.units == units {
			return n.names
		}
	}
	for i := range f.names {
		if n := &f.names[i]; n.kind == kind && n.units == units {
			f.last = i
			return n.names
		}
	}
	f.last = len(f.names)
	var names *[8]string
	if pattern, ok := queueStat(kind, units); ok {
		names = new([8]string)
		for g := range names {
			names[g] = queueCounter(pattern, int64(g))
		}
	}
	f.names = append(f.names, statNames{strings.Clone(kind), strings.Clone(units), names})
	return names
}
