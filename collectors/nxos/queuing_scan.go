package nxos

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/jsonscan"
)

// scanQueuingJSON is parseQueuingJSON's fast path: the reply walked in place, the generic
// tree never built (a 248-port leaf's reply is ~2 MB: 14,000 statistic rows, a map each, were
// a quarter of an NX-OS collection). It reads the shape NX-OS prints and declines (the tree
// then answers, errors included) anything else: the NX-API envelope, a member it reads given
// twice, missing or of another type, a null row, a string with an escape, a qos-group out of
// range, a count that is not a whole number, no Egress row.
func scanQueuingJSON(out string) (map[string]QueueCounters, bool) {
	q := &queuingScan{sc: jsonscan.New(out), res: map[string]QueueCounters{}, names: map[[2]string]*[8]string{}}
	modules := 0
	ok := q.members(topKeys, 1<<1, func(k int) bool {
		if k == 0 { // output: the NX-API envelope
			return false
		}
		return q.table("ROW_module", func() bool { modules++; return q.module() })
	})
	if !ok || !q.sc.End() || modules == 0 || len(q.res) == 0 {
		return nil, false
	}
	return q.res, true
}

// The members each level reads, by index.
var (
	topKeys    = []string{"output", "TABLE_module"}
	moduleKeys = []string{"TABLE_queuing_interface"}
	ifaceKeys  = []string{"dir", "if_name_str", "TABLE_qosgrp_egress_stats"}
	groupKeys  = []string{"eq-qosgrp", "TABLE_qosgrp_egress_stats_entry"}
	entryKeys  = []string{"eq-stat-type", "eq-stat-units", "eq-uc-stat-value"}
)

type queuingScan struct {
	sc    *jsonscan.Scanner
	res   map[string]QueueCounters
	names map[[2]string]*[8]string // counter names by statistic and unit, per qos-group
}

// members walks the object at the scanner, calling read with the index in keys of each member
// it names (each at most once) and skipping the others; the members whose bits are in
// required must be there.
func (q *queuingScan) members(keys []string, required uint, read func(k int) bool) bool {
	var seen uint
	ok := q.sc.Object(func(key string) bool {
		for k, name := range keys {
			if key == name {
				if seen&(1<<k) != 0 {
					return false
				}
				seen |= 1 << k
				return read(k)
			}
		}
		return q.sc.Skip()
	})
	return ok && seen&required == required
}

// table reads {"ROW_x": a row or [rows]} at the scanner, calling row with the scanner at
// each row, an object.
func (q *queuingScan) table(rowKey string, row func() bool) bool {
	if q.sc.Peek() != '{' {
		return false
	}
	return q.members([]string{rowKey}, 1, func(int) bool {
		switch q.sc.Peek() {
		case '{':
			return row()
		case '[':
			return q.sc.Array(func() bool { return q.sc.Peek() == '{' && row() })
		}
		return false
	})
}

func (q *queuingScan) module() bool {
	return q.members(moduleKeys, 1, func(int) bool { return q.table("ROW_queuing_interface", q.iface) })
}

// iface reads one ROW_queuing_interface: an Egress row's counters under its name. Its groups
// are read where they are when dir and if_name_str come first (as NX-OS prints them), else
// kept and read at the row's end.
func (q *queuingScan) iface() bool {
	var dir, name, groups string
	var c QueueCounters
	table := false
	ok := q.members(ifaceKeys, 1<<0|1<<1, func(k int) bool {
		var ok bool
		switch k {
		case 0:
			dir, ok = q.sc.Str()
		case 1:
			name, ok = q.sc.Str()
		default:
			table = true
			switch {
			case dir == "" || name == "":
				groups, ok = q.sc.Raw()
			case !strings.EqualFold(dir, "Egress"):
				ok = q.sc.Skip()
			default:
				c = QueueCounters{}
				ok = q.groups(c)
			}
		}
		return ok
	})
	if !ok || !strings.EqualFold(dir, "Egress") {
		return ok
	}
	name = strings.TrimSpace(name)
	if name == "" || !table {
		return false
	}
	if c == nil {
		c = QueueCounters{}
		if !q.within(groups, func() bool { return q.groups(c) }) {
			return false
		}
	}
	q.res[strings.Clone(name)] = c // the name does not keep the output alive
	return true
}

// within runs read on a scanner of raw, a value kept from the document, which read must
// consume whole.
func (q *queuingScan) within(raw string, read func() bool) bool {
	outer := q.sc
	q.sc = jsonscan.New(raw)
	ok := read() && q.sc.End()
	q.sc = outer
	return ok
}

// groups reads TABLE_qosgrp_egress_stats into c. A group whose eq-qosgrp is not a number
// (CONTROL QOS GROUP, SPAN QOS GROUP) is not a data queue and is skipped.
func (q *queuingScan) groups(c QueueCounters) bool {
	return q.table("ROW_qosgrp_egress_stats", func() bool {
		var id int64
		var set, parsed bool
		var entries string
		ok := q.members(groupKeys, 1<<0|1<<1, func(k int) bool {
			if k == 0 {
				v, isSet, isNum, ok := q.count()
				id, set = v, isSet && isNum // where number() errs, the group is skipped as unset
				return ok
			}
			if set && 0 <= id && id <= 7 {
				parsed = true
				return q.entries(c, int(id))
			}
			var ok bool
			entries, ok = q.sc.Raw()
			return ok
		})
		switch {
		case !ok || !set || parsed:
			return ok
		case id < 0 || id > 7:
			return false
		}
		return q.within(entries, func() bool { return q.entries(c, int(id)) })
	})
}

// entries reads TABLE_qosgrp_egress_stats_entry of qos-group id into c.
func (q *queuingScan) entries(c QueueCounters, id int) bool {
	return q.table("ROW_qosgrp_egress_stats_entry", func() bool {
		var kind, units string
		var v int64
		var set bool
		ok := q.members(entryKeys, 1<<0|1<<1, func(k int) bool {
			var ok, isNum bool
			switch k {
			case 0:
				kind, ok = q.sc.Str()
			case 1:
				units, ok = q.sc.Str()
			default:
				v, set, isNum, ok = q.count()
				ok = ok && isNum // number() errs: the tree's error
			}
			return ok
		})
		if !ok {
			return false
		}
		if names := q.counterNames(kind, units); names != nil && set {
			c[names[id]] = v
		}
		return true
	})
}

// count reads the value at the scanner as number does: a whole number, as a JSON number or
// a string, or null or "null" (not set). isNum is false where number errs; ok is false where
// the scanner declines (a string with an escape).
func (q *queuingScan) count() (v int64, set, isNum, ok bool) {
	var s string
	switch c := q.sc.Peek(); {
	case c == '"':
		if s, ok = q.sc.Str(); !ok {
			return 0, false, false, false
		}
		if s == "null" {
			return 0, false, true, true
		}
	case c == 'n':
		raw, ok := q.sc.Raw()
		return 0, false, true, ok && raw == "null"
	case c == '-' || '0' <= c && c <= '9':
		if s, ok = q.sc.Number(); !ok {
			return 0, false, false, false
		}
	default:
		return 0, false, false, q.sc.Skip() // true, false, an object, an array
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, false, true
	}
	return n, true, true, true
}

// counterNames are queueStat's names for a statistic and unit, one per qos-group, or nil
// when it is not a counter; made once per pair.
func (q *queuingScan) counterNames(kind, units string) *[8]string {
	key := [2]string{kind, units}
	if names, ok := q.names[key]; ok {
		return names
	}
	var names *[8]string
	if pattern, ok := queueStat(kind, units); ok {
		names = new([8]string)
		for g := range names {
			names[g] = queueCounter(pattern, int64(g))
		}
	}
	q.names[key] = names
	return names
}
