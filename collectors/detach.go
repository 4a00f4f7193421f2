package collectors

import (
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/roceaudit/roceaudit/topology"
)

// Parsers slice their facts out of the command output (a counter name is a piece of the
// `ethtool -S` text, a one-line excerpt is a line of it), and a Go substring keeps the whole
// output alive: once the transcript has left the device, its outputs would still be held by
// the facts, a third of an audit's live heap in its profile. detach copies every string the
// facts hold, interning all but the longest (counter and port names, commands, and the
// excerpts of a fabric configured alike repeat on every device), so the outputs can be freed
// as each device finishes. Interning excerpts too took a 130-device lab's live heap from 31
// to 28 MB: a copy per device had made them the largest item left.

// internMax bounds what is interned (names and excerpts, not whole outputs) and internEntries
// how many are kept; the table lives only as long as one collection run.
const (
	internMax     = 4096
	internEntries = 1 << 18
	// detachDepth bounds the walk; the model is a tree a few levels deep. Each pointer, struct
	// field, element, map entry and interface is one level further down.
	detachDepth = 32
)

// interner hands out one shared copy of each string up to internMax, and of each
// number-keyed map (QoS tables: DSCP to class, priority to class, queue to scheduler), for
// one collection run. A fabric configured alike has the same tables on every port: in an
// 8-rail 1,000-device audit they were most of the ~45 MB of QoS maps. Facts are read-only once collected,
// so ports may share one map.
type interner struct {
	run  uint64 // tells runs apart for pooled detachers (see detacher.prevRun)
	mu   sync.Mutex
	m    map[string]string
	maps map[string]any // canonical encoding (mapKey) -> the shared map
}

// runs numbers interners.
var runs atomic.Uint64

// internPerDevice sizes the table for a run's devices: an 8-rail host leaves ~84 strings of
// its own (excerpts with its counters and addresses; names and alike excerpts are shared),
// 84k in a 1,000-device audit. Growing to that size rehashed every string up to 4 kB each
// time a table split: 1.5% of that audit's CPU.
const internPerDevice = 96

// newInterner is an interner for a run over devices devices.
func newInterner(devices int) *interner {
	return &interner{run: runs.Add(1), m: make(map[string]string, min(max(devices, 0)*internPerDevice, internEntries)), maps: map[string]any{}}
}

// mapCodec encodes the values of one number-keyed map type for mapKey: tag tells map types
// apart, enc appends a value unambiguously, and small, where set, gives a value as one
// non-zero byte when it can.
type mapCodec[V any] struct {
	tag   byte
	enc   func([]byte, V) []byte
	small func(V) (byte, bool)
}

var (
	intMaps    = &mapCodec[int]{tag: 'i', enc: appendIntValue, small: smallInt}
	boolMaps   = &mapCodec[bool]{tag: 'b', enc: appendBoolValue, small: smallBool}
	stringMaps = &mapCodec[string]{tag: 's', enc: appendStringValue}
)

func appendIntValue(b []byte, v int) []byte   { return strconv.AppendInt(b, int64(v), 10) }
func appendBoolValue(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }
func appendStringValue(b []byte, v string) []byte {
	b = append(strconv.AppendInt(b, int64(len(v)), 10), '#') // length-prefixed: any byte may follow
	return append(b, v...)
}
func smallInt(v int) (byte, bool) { return byte(v + 1), uint(v) < 255 }
func smallBool(v bool) (byte, bool) {
	if v {
		return 2, true
	}
	return 1, true
}
func same[V any](v V) V { return v }

// mapKey appends to b[:0] the canonical encoding of m: equal maps of one codec, and only
// they, have equal encodings, whatever order they were built in. DSCP, priority and queue
// maps have small keys and values, so the common map is a byte per key from 0 to its largest
// ("tag D" then 0 for an absent key, else small(value)), found without sorting; else the keys
// in order, each "key:value,", in order of a mask when they are all below 64 and sorted
// otherwise. A dense encoding has 'D' after the tag, a listed one a digit, '-' or nothing.
func mapKey[V any](b []byte, c *mapCodec[V], m map[int]V) []byte {
	b = append(b[:0], c.tag)
	var (
		mask    uint64
		vals    [64]V
		small   [64]byte
		compact = c.small != nil
	)
	for k, v := range m {
		if uint(k) >= 64 {
			return sortedMapKey(b, c, m)
		}
		mask |= 1 << k
		vals[k] = v
		if compact {
			var ok bool
			if small[k], ok = c.small(v); !ok {
				compact = false
			}
		}
	}
	if compact {
		return append(append(b, 'D'), small[:bits.Len64(mask)]...)
	}
	for mask != 0 {
		k := bits.TrailingZeros64(mask)
		mask &= mask - 1
		b = appendMapEntry(b, c, k, vals[k])
	}
	return b
}

func sortedMapKey[V any](b []byte, c *mapCodec[V], m map[int]V) []byte {
	var scratch [64]int
	keys := scratch[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = appendMapEntry(b, c, k, m[k])
	}
	return b
}

func appendMapEntry[V any](b []byte, c *mapCodec[V], k int, v V) []byte {
	b = strconv.AppendInt(b, int64(k), 10)
	b = append(b, ':')
	b = c.enc(b, v)
	return append(b, ',')
}

// shareMap returns the run's one map equal to m (m itself, its strings detached, the first
// time). key is scratch for the encoding, built before the lock is taken.
func shareMap[V any](in *interner, key *[]byte, c *mapCodec[V], m map[int]V, own func(V) V) map[int]V {
	if m == nil {
		return nil
	}
	k := mapKey(*key, c, m)
	*key = k
	in.mu.Lock()
	if s, ok := in.maps[string(k)]; ok {
		in.mu.Unlock()
		return s.(map[int]V)
	}
	full := len(in.maps) >= internEntries
	in.mu.Unlock()
	s := make(map[int]V, len(m))
	for k, v := range m {
		s[k] = own(v)
	}
	if !full {
		in.mu.Lock()
		if prev, ok := in.maps[string(k)]; ok {
			s = prev.(map[int]V)
		} else {
			in.maps[string(k)] = s
		}
		in.mu.Unlock()
	}
	return s
}

// copyOf returns s in memory of its own: the shared copy when s is not too long to intern.
func (in *interner) copyOf(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > internMax {
		return strings.Clone(s)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.copyOfLocked(s)
}

// copyOfLocked is copyOf of a string no longer than internMax, with in.mu held.
func (in *interner) copyOfLocked(s string) string {
	if c, ok := in.m[s]; ok {
		return c
	}
	c := strings.Clone(s)
	if len(in.m) < internEntries {
		in.m[c] = c
	}
	return c
}

// detachLike rewrites every string reachable from v, a pointer, with its own copy, and every
// map[int]int, map[int]bool and map[int]string with the run's shared one (shareMap). Keys
// cannot be rewritten in place: another map holding strings (or keyed by number) is rebuilt
// from copies. Unexported fields are left as they are. v's type is looked up once (planOf);
// the walk below it is compiled. A v that is not a pointer is left as it is, but a slice's
// elements are detached in place. v's strings are taken to come in the same order as those
// of the last v detached with the same kind (a platform's devices): see detacher.prev.
func (in *interner) detachLike(v any, kind string) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return
	}
	run := planOf(rv.Type())
	if run == nil {
		return
	}
	d := detachers.Get().(*detacher)
	d.in = in
	d.begin(kind)
	switch rv.Kind() {
	case reflect.Pointer:
		d.root = rv.UnsafePointer()
		run(d, unsafe.Pointer(&d.root), 0)
	case reflect.Slice: // its elements are the caller's
		s := reflect.New(rv.Type())
		s.Elem().Set(rv)
		run(d, s.UnsafePointer(), 0)
	}
	d.flush()
	d.end()
	d.in, d.root = nil, nil
	clear(d.same)
	detachers.Put(d)
}

// begin starts a detach of kind: the strings of its last detach by this detacher, in this
// run, are the ones to compare with.
func (d *detacher) begin(kind string) {
	if d.prevRun != d.in.run {
		clear(d.prevs)
		d.prevRun = d.in.run
	}
	if d.prevs == nil {
		d.prevs = map[string][]string{}
	}
	d.kind, d.prev, d.seq = kind, d.prevs[kind], 0
}

// end keeps this detach's interned strings, in order, for the next of its kind.
func (d *detacher) end() {
	old := d.prev
	d.prevs[d.kind] = d.cur
	clear(old)
	d.cur, d.prev = old[:0], nil
}

// detacher is one detach: a parser may share one long string between several facts, and a
// copy for each would multiply it, so a string too long to intern is copied once per place
// its bytes are. The strings to intern are gathered and looked up a batch at a time, under
// one lock.
type detacher struct {
	in *interner
	// prev are the strings the last detach of the same kind interned, in the order str met
	// them, and cur this detach's so far; seq is the position of the next. A fabric configured
	// alike gives the same excerpts and names at the same places on each device, so a string
	// equal to the one at its place in prev is that one, with no hash and no lock: hashing
	// excerpts up to 4 kB was a quarter of a detach (BenchmarkDetachRail8Fleet).
	prev, cur []string
	seq       int
	kind      string
	prevs     map[string][]string // by kind
	prevRun   uint64              // the run prevs come from: a number, so a pooled detacher keeps no run's table alive
	root      unsafe.Pointer      // v of a pointer's detach
	same      map[strRef]string
	pending   []*string  // strings to intern, up to pendingMax
	misses    []*string  // flush's: those of pending not found in prev
	key       []byte     // mapKey's scratch
	pairs     []strPair  // a map[string]int64's entries while its names are interned
	spairs    []str2Pair // a map[string]string's
}

// pendingMax is how many strings one look-up under the lock interns: a host's ~650 strings in
// a few batches, so another device's detach does not wait behind them all.
const pendingMax = 256

type strPair struct {
	k string
	v int64
}

type str2Pair struct{ k, v string }

var detachers = sync.Pool{New: func() any {
	return &detacher{pending: make([]*string, 0, pendingMax), misses: make([]*string, 0, pendingMax)}
}}

// strRef is where a string's bytes are.
type strRef struct {
	p *byte
	n int
}

// str detaches the string at p: at once when it is too long to intern, else with the next
// batch (flush). Whatever is copied elsewhere before the batch is interned (a map's key, an
// interface's value) must flush first.
func (d *detacher) str(p *string) {
	switch s := *p; {
	case s == "":
	case len(s) > internMax:
		*p = d.copyOfUnlocked(s)
	default:
		d.pending = append(d.pending, p)
		if len(d.pending) == pendingMax {
			d.flush()
		}
	}
}

// flush interns the pending strings.
func (d *detacher) flush() {
	if len(d.pending) == 0 {
		return
	}
	misses := d.misses[:0] // the strings not found at their place in prev
	for _, p := range d.pending {
		if i := d.seq; i < len(d.prev) && d.prev[i] == *p {
			*p = d.prev[i]
		} else {
			misses = append(misses, p)
		}
		d.seq++
	}
	if len(misses) > 0 {
		in := d.in
		in.mu.Lock()
		for _, p := range misses {
			*p = in.copyOfLocked(*p)
		}
		in.mu.Unlock()
	}
	for _, p := range d.pending {
		d.cur = append(d.cur, *p)
	}
	clear(misses)
	d.misses = misses[:0]
	clear(d.pending) // the pool must not keep the device alive
	d.pending = d.pending[:0]
}

// copyOfLocked returns s detached at once (a string of a map's entry), with in.mu held.
func (d *detacher) copyOfLocked(s string) string {
	if len(s) <= internMax && s != "" {
		return d.in.copyOfLocked(s)
	}
	return d.copyOfUnlocked(s)
}

// copyOfUnlocked is copyOf of a string too long to intern (or empty), which needs no lock.
func (d *detacher) copyOfUnlocked(s string) string {
	if s == "" {
		return ""
	}
	r := strRef{unsafe.StringData(s), len(s)}
	if c, ok := d.same[r]; ok {
		return c
	}
	c := strings.Clone(s)
	if d.same == nil {
		d.same = map[strRef]string{}
	}
	d.same[r] = c
	return c
}

// A plan detaches the value of one type at p, which the walk reached depth levels down: it
// does nothing below detachDepth. Plans are compiled once per type (planOf), and only for
// types that can hold a string, a number-keyed map or an interface (typeHoldsStrings), so a
// walk goes through nothing else.
type plan func(d *detacher, p unsafe.Pointer, depth int)

var plans sync.Map // reflect.Type -> plan (nil: nothing to detach)

// planOf is the plan of values of type t.
func planOf(t reflect.Type) plan {
	if p, ok := plans.Load(t); ok {
		return p.(plan)
	}
	c := &planCompiler{holds: map[reflect.Type]bool{}, cells: map[reflect.Type]*plan{}}
	p := c.plan(t)
	plans.Store(t, p)
	return p
}

type planCompiler struct {
	holds map[reflect.Type]bool
	cells map[reflect.Type]*plan // each type's plan, being compiled while nil
}

func (c *planCompiler) holdsStrings(t reflect.Type) bool {
	b, ok := c.holds[t]
	if !ok {
		b = typeHoldsStrings(t, map[reflect.Type]bool{})
		c.holds[t] = b
	}
	return b
}

func (c *planCompiler) plan(t reflect.Type) plan {
	if !c.holdsStrings(t) {
		return nil
	}
	if cell, ok := c.cells[t]; ok {
		if *cell != nil {
			return *cell
		}
		// A recursive type (reached again through a pointer, slice or map while its plan is
		// compiled): the plan is called through the cell, set by the time it runs.
		return func(d *detacher, p unsafe.Pointer, depth int) { (*cell)(d, p, depth) }
	}
	cell := new(plan)
	c.cells[t] = cell
	*cell = c.compile(t)
	return *cell
}

// Types with a plan of their own, without reflection: counters are most of a host's strings,
// QoS maps most of its maps, and a SONiC port has a buffer map of each struct type below.
var (
	pgHeadroomsType     = reflect.TypeFor[map[int]topology.PGHeadroom]()
	ecnThresholdsType   = reflect.TypeFor[map[int]topology.ECNThreshold]()
	pfcThresholdsType   = reflect.TypeFor[map[int]topology.PFCThreshold]()
	stringsType         = reflect.TypeFor[[]string]()
	countersType        = reflect.TypeFor[map[string]int64]()
	intMapType          = reflect.TypeFor[map[int]int]()
	boolMapType         = reflect.TypeFor[map[int]bool]()
	stringMapType       = reflect.TypeFor[map[int]string]()
	stringStringMapType = reflect.TypeFor[map[string]string]()
)

func (c *planCompiler) compile(t reflect.Type) plan {
	switch t {
	case stringsType:
		return detachStrings
	case countersType:
		return detachCounters
	case intMapType:
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth <= detachDepth {
				m := (*map[int]int)(p)
				*m = shareMap(d.in, &d.key, intMaps, *m, same[int])
			}
		}
	case boolMapType:
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth <= detachDepth {
				m := (*map[int]bool)(p)
				*m = shareMap(d.in, &d.key, boolMaps, *m, same[bool])
			}
		}
	case stringMapType:
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth <= detachDepth {
				m := (*map[int]string)(p)
				*m = shareMap(d.in, &d.key, stringMaps, *m, d.in.copyOf)
			}
		}
	case stringStringMapType:
		return detachStringMap
	case pgHeadroomsType:
		return intKeyedPlan[topology.PGHeadroom](c.plan(t.Elem()))
	case ecnThresholdsType:
		return intKeyedPlan[topology.ECNThreshold](c.plan(t.Elem()))
	case pfcThresholdsType:
		return intKeyedPlan[topology.PFCThreshold](c.plan(t.Elem()))
	}
	switch t.Kind() {
	case reflect.String:
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth <= detachDepth {
				d.str((*string)(p))
			}
		}
	case reflect.Pointer:
		elem := c.plan(t.Elem())
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if q := *(*unsafe.Pointer)(p); q != nil && depth < detachDepth {
				elem(d, q, depth+1)
			}
		}
	case reflect.Slice:
		elem, size := c.plan(t.Elem()), t.Elem().Size()
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth < detachDepth {
				s := (*sliceHeader)(p)
				for i := range s.len {
					elem(d, unsafe.Add(s.data, uintptr(i)*size), depth+1)
				}
			}
		}
	case reflect.Array:
		elem, size, n := c.plan(t.Elem()), t.Elem().Size(), t.Len()
		return func(d *detacher, p unsafe.Pointer, depth int) {
			if depth < detachDepth {
				for i := range n {
					elem(d, unsafe.Add(p, uintptr(i)*size), depth+1)
				}
			}
		}
	case reflect.Struct:
		ops := c.fields(t, 0, 0, nil)
		return func(d *detacher, p unsafe.Pointer, depth int) {
			for i := range ops {
				op := &ops[i]
				if depth+op.depth > detachDepth {
					continue
				}
				if op.run == nil {
					d.str((*string)(unsafe.Add(p, op.off)))
				} else {
					op.run(d, unsafe.Add(p, op.off), depth+op.depth)
				}
			}
		}
	case reflect.Map:
		return c.mapPlan(t)
	case reflect.Interface:
		return interfacePlan(t)
	}
	return nil // typeHoldsStrings holds no other kind
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// fieldOp is one field of a struct that can hold a string, at off, depth levels below the
// struct: its plan, or nil for a string. The fields of a struct inside the struct are its own.
type fieldOp struct {
	off   uintptr
	depth int
	run   plan
}

func (c *planCompiler) fields(t reflect.Type, off uintptr, depth int, ops []fieldOp) []fieldOp {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || !c.holdsStrings(f.Type) {
			continue
		}
		switch {
		case f.Type.Kind() == reflect.Struct:
			ops = c.fields(f.Type, off+f.Offset, depth+1, ops)
		case f.Type.Kind() == reflect.String:
			ops = append(ops, fieldOp{off: off + f.Offset, depth: depth + 1})
		default:
			ops = append(ops, fieldOp{off: off + f.Offset, depth: depth + 1, run: c.plan(f.Type)})
		}
	}
	return ops
}

func detachStrings(d *detacher, p unsafe.Pointer, depth int) {
	if depth > detachDepth {
		return
	}
	for i := range *(*[]string)(p) {
		d.str(&(*(*[]string)(p))[i])
	}
}

// detachCounters rebuilds a map[string]int64 with its names interned under one lock, not one
// per counter name: a host's hundreds of names each took and released it.
func detachCounters(d *detacher, p unsafe.Pointer, depth int) {
	mp := (*map[string]int64)(p)
	if depth > detachDepth || *mp == nil {
		return
	}
	pairs := d.pairs[:0]
	for k, v := range *mp {
		pairs = append(pairs, strPair{k, v})
	}
	d.in.mu.Lock()
	for i := range pairs {
		pairs[i].k = d.copyOfLocked(pairs[i].k)
	}
	d.in.mu.Unlock()
	m := make(map[string]int64, len(pairs))
	for _, e := range pairs {
		m[e.k] = e.v
	}
	*mp = m
	clear(pairs)
	d.pairs = pairs[:0]
}

// detachStringMap is detachCounters of a map[string]string.
func detachStringMap(d *detacher, p unsafe.Pointer, depth int) {
	mp := (*map[string]string)(p)
	if depth > detachDepth || *mp == nil {
		return
	}
	pairs := d.spairs[:0]
	for k, v := range *mp {
		pairs = append(pairs, str2Pair{k, v})
	}
	d.in.mu.Lock()
	for i := range pairs {
		pairs[i].k = d.copyOfLocked(pairs[i].k)
		pairs[i].v = d.copyOfLocked(pairs[i].v)
	}
	d.in.mu.Unlock()
	m := make(map[string]string, len(pairs))
	for _, e := range pairs {
		m[e.k] = e.v
	}
	*mp = m
	clear(pairs)
	d.spairs = pairs[:0]
}

// intKeyedPlan is mapPlan of a map[int]V without reflection: the map is rebuilt (not shared)
// from its entries, detached in a slice so that their strings are interned in one batch.
func intKeyedPlan[V any](elem plan) plan {
	return func(d *detacher, p unsafe.Pointer, depth int) {
		mp := (*map[int]V)(p)
		if depth > detachDepth || *mp == nil {
			return
		}
		es := make([]mapEntry[V], 0, len(*mp))
		for k, v := range *mp {
			es = append(es, mapEntry[V]{k, v})
		}
		if elem != nil && depth < detachDepth {
			for i := range es {
				elem(d, unsafe.Pointer(&es[i].v), depth+1)
			}
			d.flush() // the entries are copied into m next
		}
		m := make(map[int]V, len(es))
		for _, e := range es {
			m[e.k] = e.v
		}
		*mp = m
	}
}

type mapEntry[V any] struct {
	k int
	v V
}

// mapPlan is the plan of a map type without one of its own, through reflection (the model has
// none): the map is rebuilt from detached copies of its entries.
func (c *planCompiler) mapPlan(t reflect.Type) plan {
	key, elem := c.plan(t.Key()), c.plan(t.Elem())
	return func(d *detacher, p unsafe.Pointer, depth int) {
		v := reflect.NewAt(t, p).Elem()
		if depth > detachDepth || v.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(t, v.Len())
		k, e := reflect.New(t.Key()), reflect.New(t.Elem())
		for it := v.MapRange(); it.Next(); {
			k.Elem().SetIterKey(it)
			e.Elem().SetIterValue(it)
			if depth < detachDepth {
				if key != nil {
					key(d, k.UnsafePointer(), depth+1)
				}
				if elem != nil {
					elem(d, e.UnsafePointer(), depth+1)
				}
				d.flush() // the entry is copied into m next
			}
			m.SetMapIndex(k.Elem(), e.Elem())
		}
		v.Set(m)
	}
}

// interfacePlan is the plan of an interface type, through reflection (the model has none):
// the value it holds is detached as its own type says, in a copy that then replaces it.
func interfacePlan(t reflect.Type) plan {
	return func(d *detacher, p unsafe.Pointer, depth int) {
		v := reflect.NewAt(t, p).Elem()
		if depth >= detachDepth || v.IsNil() {
			return
		}
		run := planOf(v.Elem().Type())
		if run == nil {
			return
		}
		e := reflect.New(v.Elem().Type())
		e.Elem().Set(v.Elem())
		run(d, e.UnsafePointer(), depth+1)
		d.flush() // e's value is copied into v next
		v.Set(e.Elem())
	}
}

// typeHoldsStrings is whether a value of type t can hold a string, a number-keyed map (shared:
// see shareMap) or an interface in an exported field; other subtrees are not walked.
func typeHoldsStrings(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false // a recursive type: its strings are found on the path that led here
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return typeHoldsStrings(t.Elem(), seen)
	case reflect.Map:
		if t.Key().Kind() == reflect.Int {
			return true // shared: see shareMap
		}
		return typeHoldsStrings(t.Key(), seen) || typeHoldsStrings(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && typeHoldsStrings(f.Type, seen) {
				return true
			}
		}
	}
	return false
}
