package sonic

import (
	"fmt"
	"strconv"
	"strings"
)

// PortCounters are the counters of each port, by normalized name.
type PortCounters map[string]map[string]int64

// counterRows is what a counter command parsed to, flat: every value in the order the output
// gives it, by port. Collect merges each port's three commands into one map, so the parsers'
// map per port (grown a counter at a time, then copied) was a quarter of a SONiC leaf's
// parsing; this holds two slices instead.
type counterRows struct {
	slots   map[string]int32 // port -> slot
	ports   []string         // slot -> port
	names   []string         // the counters' names, by id (see name)
	entries []counterEntry   // by slot once grouped, in output order within a port
	starts  []int32          // once grouped: slot s is entries[starts[s]:starts[s+1]]

	lastPort string // the port of the last add, the next one's usually
	lastSlot int32
}

// counterEntry holds no pointer (its name is an id): 16 bytes the collector never scans.
type counterEntry struct {
	slot, name int32
	v          int64
}

// name is the id of a counter name, for add; a parser names each column once per table.
func (cr *counterRows) name(s string) int32 {
	cr.names = append(cr.names, s)
	return int32(len(cr.names) - 1)
}

func newCounterRows(sizeHint int) *counterRows {
	return &counterRows{slots: map[string]int32{}, lastSlot: -1, entries: make([]counterEntry, 0, sizeHint)}
}

func (cr *counterRows) add(port string, name int32, v int64) {
	if cr.lastSlot < 0 || port != cr.lastPort {
		s, ok := cr.slots[port]
		if !ok {
			s = int32(len(cr.ports))
			cr.slots[port] = s
			cr.ports = append(cr.ports, port)
		}
		cr.lastPort, cr.lastSlot = port, s
	}
	cr.entries = append(cr.entries, counterEntry{cr.lastSlot, name, v})
}

// group orders the entries by slot, keeping each port's in output order (a counting sort).
func (cr *counterRows) group() *counterRows {
	cr.starts = make([]int32, len(cr.ports)+1)
	sorted := true
	for i, e := range cr.entries {
		cr.starts[e.slot+1]++
		if i > 0 && e.slot < cr.entries[i-1].slot {
			sorted = false
		}
	}
	for s := range cr.ports {
		cr.starts[s+1] += cr.starts[s]
	}
	if !sorted {
		next := append([]int32(nil), cr.starts[:len(cr.ports)]...)
		out := make([]counterEntry, len(cr.entries))
		for _, e := range cr.entries {
			out[next[e.slot]] = e
			next[e.slot]++
		}
		cr.entries = out
	}
	return cr
}

// of is port's entries (a name may repeat: the last one counts), after group.
func (cr *counterRows) of(port string) []counterEntry {
	if cr == nil {
		return nil
	}
	s, ok := cr.slots[port]
	if !ok {
		return nil
	}
	return cr.entries[cr.starts[s]:cr.starts[s+1]]
}

// portCounters is the exported form.
func (cr *counterRows) portCounters() PortCounters {
	pc := make(PortCounters, len(cr.ports))
	for s, port := range cr.ports {
		es := cr.entries[cr.starts[s]:cr.starts[s+1]]
		m := make(map[string]int64, len(es))
		for _, e := range es {
			m[cr.names[e.name]] = e.v
		}
		pc[port] = m
	}
	return pc
}

// counterValue reads a tabulate counter cell: thousands separators allowed, "N/A" is absent.
func counterValue(cell string) (int64, bool, error) {
	if len(cell) > 0 && len(cell) <= 18 { // plain digits, most cells: no trimming nor ParseInt
		var v int64
		i := 0
		for ; i < len(cell) && cell[i] >= '0' && cell[i] <= '9'; i++ {
			v = v*10 + int64(cell[i]-'0')
		}
		if i == len(cell) {
			return v, true, nil
		}
	}
	cell = strings.TrimSpace(cell)
	if cell == "" || strings.EqualFold(cell, "N/A") {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(cell, ",", ""), 10, 64)
	if err != nil || v < 0 {
		return 0, false, fmt.Errorf("%q is not a counter value", cell)
	}
	return v, true, nil
}
