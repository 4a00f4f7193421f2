package sonic

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/roceaudit/roceaudit/collectors/internal/natural"
)

// keyIndex is, per table, the keys of a "<ports>|<ids>" table that name each port: built once
// per switch (Collect), where a scan of the whole table per port and fact was quadratic in
// the leaf's ports.
type keyIndex struct {
	mu     sync.Mutex
	tables map[string]map[string]portKeysOf // table -> port -> see sortedPortKeys
	maps   map[groupedMapKey]groupedMap     // see groupedNumberMap
	shared map[sharedKey]any                // see sharedValue
}

// sharedKey names what sharedValue keeps: what site computes, of which name (a profile, a
// pool) and number (a priority group).
type sharedKey struct {
	site sharedSite
	name string
	n    int
}

type sharedSite uint8

const (
	siteWREDThresholds sharedSite = iota
	sitePoolSize
	siteProfileECNOrder
	siteProfileHeadroom
	sitePlatform
	siteLosslessPattern
	siteCableKeys
	siteBufferWhat
	siteWREDTarget
	siteSchedulerTarget
)

// sharedValue is compute(), once per switch when db is indexed: what every port's facts
// read alike (a profile's excerpt, the platform's ASIC line). It must depend on the key alone.
func sharedValue[T any](db *ConfigDB, k sharedKey, compute func() T) T {
	if db.keys == nil {
		return compute()
	}
	db.keys.mu.Lock()
	v, ok := db.keys.shared[k]
	db.keys.mu.Unlock()
	if ok {
		return v.(T)
	}
	t := compute()
	db.keys.mu.Lock()
	db.keys.shared[k] = t
	db.keys.mu.Unlock()
	return t
}

// indexKeys makes db's sortedPortKeys look keys up rather than scan. Only Collect calls it, after
// parsing and before any fact: the tables must not change afterwards.
func (db *ConfigDB) indexKeys() {
	db.keys = &keyIndex{tables: map[string]map[string]portKeysOf{}, maps: map[groupedMapKey]groupedMap{},
		shared: map[sharedKey]any{}}
}

// portKey is a key of a "<ports>|<ids>" table, the ids it names and its row.
type portKey struct {
	key string
	ids []int
	row map[string]string
}

// sortedPortKeys are the keys of a "<ports>|<ids>" table (QUEUE, BUFFER_PG) that apply to
// port, in port order, with the ids each one names and its row. <ports> may list several
// ports ("Ethernet0,Ethernet4", an old template form); <ids> may be a number, a range ("3-4")
// or a list ("0,1,5-6"). Each port's are read once per switch when db is indexed: five facts of every port read the same QUEUE and BUFFER_PG keys,
// and parsing their ids and sorting them was a tenth of a SONiC leaf's collection. The slices
// are shared: read-only.
func (db *ConfigDB) sortedPortKeys(table, port string) ([]portKey, error) {
	if db.keys == nil {
		var out []portKey
		for key, row := range db.Tables[table] {
			if i := strings.LastIndex(key, "|"); i >= 0 && listHas(key[:i], port) {
				out = append(out, portKey{key: key, row: row})
			}
		}
		// sorted before the ids parse, as the index does: the first bad key in port order
		// is the error
		slices.SortFunc(out, comparePortKeys)
		for i := range out {
			ids, err := parseIDs(out[i].key[strings.LastIndex(out[i].key, "|")+1:])
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", out[i].key, err)
			}
			out[i].ids = ids
		}
		return out, nil
	}
	r := db.keys.of(table, db.Tables[table])[port]
	return r.keys, r.err
}

type portKeysOf struct {
	keys []portKey
	err  error
}

// singleID is parseIDs of an id that is one number, without its slices.
func singleID(s string) (int, bool) {
	if strings.ContainsAny(s, ",-") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// of is table's index, built on first use: every port's keys, sorted, with their ids (the
// first key whose ids do not parse is the port's error). Per table rather than per port, it
// reads each key's row and ids in one pass: no lookup per key and port.
func (k *keyIndex) of(name string, table map[string]map[string]string) map[string]portKeysOf {
	k.mu.Lock()
	defer k.mu.Unlock()
	if idx, ok := k.tables[name]; ok {
		return idx
	}
	// Each port's keys in one array, counted first: appending them grew a slice per port
	// (1.5k of a leaf's 26k allocations).
	counts := map[string]int{}
	total := 0
	for key := range table {
		if i := strings.LastIndex(key, "|"); i >= 0 {
			for p := range keyPorts(key[:i]) {
				counts[p]++
				total++
			}
		}
	}
	all := make([]portKey, total)
	byPort := make(map[string][]portKey, len(counts))
	for p, n := range counts {
		byPort[p], all = all[:0:n], all[n:]
	}
	for key, row := range table {
		i := strings.LastIndex(key, "|")
		if i < 0 {
			continue
		}
		for p := range keyPorts(key[:i]) {
			if ks := byPort[p]; len(ks) == 0 || ks[len(ks)-1].key != key {
				byPort[p] = append(ks, portKey{key: key, row: row})
			}
		}
	}
	idx := make(map[string]portKeysOf, len(byPort))
	single := make([]int, 0, len(table)) // the ids of keys naming one, most: one allocation
	for p, keys := range byPort {
		slices.SortFunc(keys, comparePortKeys)
		r := portKeysOf{keys: keys}
		for i := range keys {
			key := keys[i].key
			s := key[strings.LastIndex(key, "|")+1:]
			if n, ok := singleID(s); ok {
				single = append(single, n)
				keys[i].ids = single[len(single)-1 : len(single) : len(single)]
				continue
			}
			ids, err := parseIDs(s)
			if err != nil {
				r = portKeysOf{err: fmt.Errorf("key %q: %w", key, err)}
				break
			}
			keys[i].ids = ids
		}
		idx[p] = r
	}
	k.tables[name] = idx
	return idx
}

// keyPorts are the ports a key's "<ports>" part lists.
func keyPorts(ports string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if strings.IndexByte(ports, ',') < 0 { // one port, most keys
			yield(strings.TrimSpace(ports))
			return
		}
		for p := range strings.SplitSeq(ports, ",") {
			if !yield(strings.TrimSpace(p)) {
				return
			}
		}
	}
}

// listHas reports whether the comma-separated list names item. It runs for every key of a
// table for every port (quadratic in a leaf's ports: 6% of an 8-rail 1k audit's CPU when it
// split each key), so it rejects by substring first and never allocates.
func listHas(list, item string) bool {
	if !strings.Contains(list, item) {
		return false
	}
	for rest := list; ; {
		p, more, found := strings.Cut(rest, ",")
		if strings.TrimSpace(p) == item {
			return true
		}
		if !found {
			return false
		}
		rest = more
	}
}

// parseIDs reads "3", "3-4" or "0,1,5-6" into sorted numbers.
func parseIDs(s string) ([]int, error) {
	if n, ok := singleID(s); ok { // one number, most: no split
		return []int{n}, nil
	}
	var ids []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number, range or list", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 64 {
				return nil, fmt.Errorf("%q is not a number, range or list", s)
			}
		}
		for v := a; v <= b; v++ {
			ids = append(ids, v)
		}
	}
	sort.Ints(ids)
	return ids, nil
}

// priorities parses a pfc_enable-style list ("3,4", "" for none) of priorities 0..7.
func priorities(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return []int{}, nil
	}
	ids, err := parseIDs(s)
	if err != nil {
		return nil, err
	}
	for _, p := range ids {
		if p < 0 || p > 7 {
			return nil, fmt.Errorf("%q: %d is not a priority (0..7)", s, p)
		}
	}
	return ids, nil
}

// portOrder is the natural order of port names (Ethernet4 before Ethernet12). Digit runs are
// read nine at a time, as this collector always has; no port number is that long.
var portOrder = natural.Order{MaxDigits: 9}

// comparePortKeys orders keys by comparePorts, and keys it finds equal ("E|01", "E|1") by
// their bytes: one order, whatever order the table's map gives them in.
func comparePortKeys(a, b portKey) int {
	if c := comparePorts(a.key, b.key); c != 0 {
		return c
	}
	return strings.Compare(a.key, b.key)
}

// comparePorts is portOrder.Compare in one pass, without Atoi: sorting a port's keys by
// Compare (Less both ways) was a twentieth of a SONiC leaf's collection.
func comparePorts(a, b string) int {
	const maxDigits = 9 // portOrder's
	// Skip the common prefix, back to the start of a digit run it ends in: up to there both
	// compare alike (a port's keys differ in their last characters).
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && a[i-1] >= '0' && a[i-1] <= '9' {
		i--
	}
	a, b = a[i:], b[i:]
	for a != "" && b != "" {
		da, db := 0, 0
		na, nb := 0, 0
		for da < len(a) && da < maxDigits && a[da] >= '0' && a[da] <= '9' {
			na = na*10 + int(a[da]-'0')
			da++
		}
		for db < len(b) && db < maxDigits && b[db] >= '0' && b[db] <= '9' {
			nb = nb*10 + int(b[db]-'0')
			db++
		}
		if da > 0 && db > 0 {
			if na != nb {
				return cmp.Compare(na, nb)
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	// Not sort.Slice: its swapper was an allocation per call. Keys equal in natural order
	// ("Ethernet01", "Ethernet1") are ordered by their bytes, not by the map's iteration.
	slices.SortFunc(ks, func(a, b string) int { return cmp.Or(comparePorts(a, b), strings.Compare(a, b)) })
	return ks
}
