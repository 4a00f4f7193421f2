package collectors

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/topology"
)

// visitStrings calls f with every string reachable from v through exported fields, elements,
// map keys and values and interfaces, as detach reaches them; maps with every map.
func visitStrings(v reflect.Value, f func(string), maps func(reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		f(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			visitStrings(v.Elem(), f, maps)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				visitStrings(v.Field(i), f, maps)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			visitStrings(v.Index(i), f, maps)
		}
	case reflect.Map:
		if maps != nil && !v.IsNil() {
			maps(v)
		}
		for it := v.MapRange(); it.Next(); {
			visitStrings(it.Key(), f, maps)
			visitStrings(it.Value(), f, maps)
		}
	}
}

// spans are where a value's strings were: strings that lie in none of them are copies.
type spans [][2]uintptr

func spansOf(v any) spans {
	var s spans
	visitStrings(reflect.ValueOf(v), func(str string) {
		if str != "" {
			p := uintptr(unsafe.Pointer(unsafe.StringData(str)))
			s = append(s, [2]uintptr{p, p + uintptr(len(str))})
		}
	}, nil)
	slices.SortFunc(s, func(a, b [2]uintptr) int { return int(a[0]) - int(b[0]) })
	return s
}

// holds reports whether str's bytes lie in one of the spans.
func (s spans) holds(str string) bool {
	if str == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(str)))
	// The spans before the first that starts after p; a few, since substrings' spans nest.
	i := sort.Search(len(s), func(i int) bool { return s[i][0] > p })
	for j := i - 1; j >= 0 && j >= i-64; j-- {
		if p >= s[j][0] && p < s[j][1] {
			return true
		}
	}
	return false
}

// sameMemory reports whether two strings' bytes are the same bytes.
func sameMemory(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func decodeRail8Host(t testing.TB) *topology.Device {
	line, err := os.ReadFile("testdata/rail8-host.json")
	if err != nil {
		t.Fatal(err)
	}
	var dev topology.Device
	if err := json.Unmarshal(line, &dev); err != nil {
		t.Fatal(err)
	}
	return &dev
}

// A real 8-rail host's facts, detached, are what they were; none of their strings is where it
// was; every string short enough is the run's one copy of it, so a second host shares it; and
// every number-keyed map is the run's one copy of it, so a second host shares that too.
func TestDetachRail8HostKeepsFactsAndCopiesEveryString(t *testing.T) {
	want := decodeRail8Host(t)
	a, b := decodeRail8Host(t), decodeRail8Host(t)
	before := append(spansOf(a), spansOf(b)...)
	slices.SortFunc(before, func(x, y [2]uintptr) int { return int(x[0]) - int(y[0]) })
	// The strings detach replaces stay alive to the end: freed, their memory could hold a
	// copy detach makes, which would then look as if it had never moved.
	var originals []string
	for _, d := range []*topology.Device{a, b} {
		visitStrings(reflect.ValueOf(d), func(s string) { originals = append(originals, s) }, nil)
	}
	defer runtime.KeepAlive(originals)
	in := newInterner(1)
	in.detach(a)
	in.detach(b)
	for _, d := range []*topology.Device{a, b} {
		if diff := cmp.Diff(want, d); diff != "" {
			t.Fatalf("detach changed the facts (-want +got):\n%s", diff)
		}
	}
	n, maps := 0, 0
	for _, d := range []*topology.Device{a, b} {
		visitStrings(reflect.ValueOf(d), func(s string) {
			n++
			if before.holds(s) {
				t.Errorf("%.40q is where it was before detach", s)
			}
			if s != "" && len(s) <= internMax && !sameMemory(s, in.m[s]) {
				t.Errorf("%.40q is not the run's one copy", s)
			}
		}, func(m reflect.Value) {
			if m.Type().Key().Kind() != reflect.Int {
				return
			}
			maps++
			if c, ok := in.maps[string(mapKeyOf(t, m))]; !ok || reflect.ValueOf(c).UnsafePointer() != m.UnsafePointer() {
				t.Errorf("%v is not the run's one copy of it", m)
			}
		})
	}
	if n < 1000 || maps < 40 {
		t.Errorf("saw %d strings and %d number-keyed maps: the host is not the one the test expects", n, maps)
	}
}

func mapKeyOf(t *testing.T, m reflect.Value) []byte {
	switch m := m.Interface().(type) {
	case map[int]int:
		return mapKey(nil, intMaps, m)
	case map[int]bool:
		return mapKey(nil, boolMaps, m)
	case map[int]string:
		return mapKey(nil, stringMaps, m)
	}
	t.Fatalf("no codec for %v", m.Type())
	return nil
}

// Many devices detached at once through one interner (as a run's goroutines do) are each
// what they were, and share their strings.
func TestDetachConcurrently(t *testing.T) {
	want := decodeRail8Host(t)
	devs := make([]*topology.Device, 8)
	for i := range devs {
		devs[i] = decodeRail8Host(t)
	}
	in := newInterner(1)
	var wg sync.WaitGroup
	for _, d := range devs {
		wg.Go(func() { in.detach(d) })
	}
	wg.Wait()
	for _, d := range devs {
		if diff := cmp.Diff(want, d); diff != "" {
			t.Fatalf("detach changed the facts (-want +got):\n%s", diff)
		}
		if !sameMemory(d.Host.Ports[3].Link.Source.Excerpt, devs[0].Host.Ports[3].Link.Source.Excerpt) {
			t.Error("two devices' equal excerpts are two copies")
		}
	}
}

// Every kind of field a plan handles, and those it leaves alone.
type (
	detachKinds struct {
		S         string
		Role      topology.Role // a named string
		Strs      []string
		Names     detachNames // a named []string: elements one by one
		Arr       [2]string
		Leaves    []detachLeaf
		Ptrs      []*detachLeaf
		Ptr       *detachLeaf
		NilPtr    *detachLeaf
		Counters  map[string]int64
		NoCounter map[string]int64
		Ints      map[int]int
		Bools     map[int]bool
		IntStrs   map[int]string
		StrStrs   map[string]string
		Lists     map[string][]string   // reflection
		ByLeaf    map[detachLeaf]string // reflection, strings in the key
		Floats    map[int]float64       // reflection: rebuilt, not shared
		Named     detachQoS             // reflection: rebuilt, not shared
		Any       any
		AnyPtr    any
		AnyLeaf   any
		AnyNum    any
		AnyNil    any
		Fact      topology.Fact[[]topology.GID]
		Nested    struct{ In struct{ S string } }
		Embedded
		detachLeaf // unexported: left alone
		hidden     string
		hiddenPtr  *detachLeaf
		hiddenMap  map[int]int
		Num        int
		PFC        [8]bool
	}
	detachNames []string
	detachQoS   map[int]int
	detachLeaf  struct{ Name, Other string }
	Embedded    struct{ E string }
)

// mkKinds builds a detachKinds whose strings are all cut from out.
func mkKinds(out string) *detachKinds {
	w := func(i int) string { return strings.Fields(out)[i] } // out's i-th word, in out
	leaf := func(i int) detachLeaf { return detachLeaf{w(i), w(i + 1)} }
	lp := leaf(20)
	return &detachKinds{
		S: w(0), Role: topology.Role(w(1)), Strs: []string{w(2), w(3)}, Names: detachNames{w(4)},
		Arr:    [2]string{w(5), w(6)},
		Leaves: []detachLeaf{leaf(7)}, Ptrs: []*detachLeaf{&lp, nil}, Ptr: &detachLeaf{w(9), ""},
		Counters: map[string]int64{w(10): 1, w(11): 2},
		Ints:     map[int]int{0: 3, 63: 7}, Bools: map[int]bool{3: true}, IntStrs: map[int]string{1: w(12)},
		StrStrs: map[string]string{w(13): w(14)},
		Lists:   map[string][]string{w(15): {w(16)}}, ByLeaf: map[detachLeaf]string{leaf(17): w(19)},
		Floats: map[int]float64{1: 2.5}, Named: detachQoS{1: 2},
		Any: w(22), AnyPtr: &detachLeaf{w(23), ""}, AnyLeaf: leaf(24), AnyNum: 7,
		Fact:       topology.Known([]topology.GID{{GID: w(26), Type: w(27)}}, topology.Evidence{Command: w(28), Excerpt: out[:40]}),
		Nested:     struct{ In struct{ S string } }{struct{ S string }{w(29)}},
		Embedded:   Embedded{w(30)},
		detachLeaf: leaf(31), hidden: w(33), hiddenPtr: &detachLeaf{w(34), ""}, hiddenMap: map[int]int{1: 1},
		Num: 5, PFC: [8]bool{3: true},
	}
}

func kindsOutput() string {
	var sb strings.Builder
	for i := range 40 {
		fmt.Fprintf(&sb, "word%02d ", i)
	}
	return sb.String()
}

func TestDetachPlanHandlesEveryKind(t *testing.T) {
	out := kindsOutput()
	a, b := mkKinds(out), mkKinds(out)
	want := mkKinds(out)
	hiddenMap, anyPtr := a.hiddenMap, a.AnyPtr.(*detachLeaf)
	in := newInterner(1)
	in.detach(a)
	in.detach(b)
	opt := cmp.AllowUnexported(detachKinds{}, detachLeaf{})
	if diff := cmp.Diff(want, a, opt); diff != "" {
		t.Fatalf("detach changed the value (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, b, opt); diff != "" {
		t.Fatalf("detach changed the value (-want +got):\n%s", diff)
	}
	buf := spans{{uintptr(unsafe.Pointer(unsafe.StringData(out))), uintptr(unsafe.Pointer(unsafe.StringData(out))) + uintptr(len(out))}}
	n := 0
	visitStrings(reflect.ValueOf(a), func(s string) {
		n++
		if buf.holds(s) {
			t.Errorf("%q still points into the output", s)
		}
		if s != "" && !sameMemory(s, in.m[s]) {
			t.Errorf("%q is not the run's one copy", s)
		}
	}, nil)
	if n < 30 {
		t.Errorf("saw %d strings, want every field's", n)
	}
	for _, s := range []string{a.hidden, a.hiddenPtr.Name, a.detachLeaf.Name, a.detachLeaf.Other} {
		if !buf.holds(s) {
			t.Errorf("unexported %q was detached", s)
		}
	}
	if a.NilPtr != nil || a.NoCounter != nil || a.AnyNil != nil || a.Ptrs[1] != nil {
		t.Error("a nil became something")
	}
	ptr := func(v any) unsafe.Pointer { return reflect.ValueOf(v).UnsafePointer() }
	if ptr(a.Ints) != ptr(b.Ints) || ptr(a.Bools) != ptr(b.Bools) || ptr(a.IntStrs) != ptr(b.IntStrs) {
		t.Error("equal number-keyed maps are not shared")
	}
	if ptr(a.Floats) == ptr(b.Floats) || ptr(a.Named) == ptr(b.Named) {
		t.Error("a map without a shared form of its own was shared")
	}
	if ptr(a.hiddenMap) != ptr(hiddenMap) {
		t.Error("an unexported map was replaced")
	}
	if a.AnyPtr.(*detachLeaf) != anyPtr {
		t.Error("an interface's pointer was replaced") // its pointee is detached in place
	}
}

// A slice is detached in place: the caller's elements are rewritten. Other values that are
// not pointers are left as they are (their strings could not be rewritten where the caller
// sees them).
func TestDetachRootsThatAreNotPointers(t *testing.T) {
	out := kindsOutput()
	s := strings.Fields(out)[:3]
	in := newInterner(1)
	in.detach(s)
	for _, w := range s {
		if within(w, out) {
			t.Errorf("%q still points into the output", w)
		}
	}
	l := detachLeaf{out[:6], out[7:13]}
	in.detach(l)
	in.detach(nil)
	in.detach(map[int]int{1: 1})
	if len(in.maps) != 0 {
		t.Error("a map passed by value was shared")
	}
}

// A recursive type compiles, and a walk down it stops detachDepth levels below the root, as
// the reflective walk did: the model is a tree a few levels deep, and a cycle ends.
type detachList struct {
	Name   string
	Next   *detachList
	Kids   []detachList
	ByName map[string]*detachList
	Other  *detachOther
}

type detachOther struct{ List *detachList }

func TestDetachRecursiveTypes(t *testing.T) {
	out := strings.Repeat("node ", 64)
	var head *detachList
	for i := range 20 {
		head = &detachList{Name: out[5*i : 5*i+4], Next: head}
	}
	head.Kids = []detachList{{Name: out[:4]}}
	head.ByName = map[string]*detachList{out[5:9]: {Name: out[10:14]}}
	head.Other = &detachOther{&detachList{Name: out[15:19]}}
	in := newInterner(1)
	in.detach(head)
	// Node i's struct is 2i+1 levels down (a pointer, then a struct) and its Name 2i+2.
	i := 0
	for l := head; l != nil; l, i = l.Next, i+1 {
		if detached := !within(l.Name, out); detached != (2*i+2 <= detachDepth) {
			t.Errorf("node %d (name %d levels down): detached %v", i, 2*i+2, detached)
		}
	}
	for _, s := range []string{head.Kids[0].Name, head.ByName["node"].Name, head.Other.List.Name} {
		if within(s, out) {
			t.Errorf("%q still points into the output", s)
		}
	}
	for k := range head.ByName {
		if within(k, out) {
			t.Errorf("key %q still points into the output", k)
		}
	}
	cycle := &detachList{Name: out[:4]}
	cycle.Next = cycle
	in.detach(cycle) // ends
	if within(cycle.Name, out) {
		t.Error("a cycle's name was not detached")
	}
}

// Every type the model's devices hold has a plan without reflection: an interface or a map
// type without a plan of its own would walk it through reflection (mapPlan, interfacePlan),
// which works but is slow enough to show in an audit's profile; give it a plan in compile.
func TestDetachPlanOfTheModelNeedsNoReflection(t *testing.T) {
	own := map[reflect.Type]bool{countersType: true, intMapType: true, boolMapType: true, stringMapType: true, stringStringMapType: true,
		pgHeadroomsType: true, ecnThresholdsType: true, pfcThresholdsType: true}
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type, path string)
	visit = func(typ reflect.Type, path string) {
		if seen[typ] || !typeHoldsStrings(typ, map[reflect.Type]bool{}) {
			return
		}
		seen[typ] = true
		switch typ.Kind() {
		case reflect.Interface:
			t.Errorf("%s (%v) is an interface", path, typ)
		case reflect.Map:
			if !own[typ] {
				t.Errorf("%s (%v) is a map without a plan of its own", path, typ)
			}
		case reflect.Pointer, reflect.Slice, reflect.Array:
			visit(typ.Elem(), path+"[]")
		case reflect.Struct:
			for i := range typ.NumField() {
				if f := typ.Field(i); f.IsExported() {
					visit(f.Type, path+"."+f.Name)
				}
			}
		}
	}
	visit(reflect.TypeFor[topology.Device](), "Device")
	if len(seen) < 20 {
		t.Errorf("visited %d types, want the model's", len(seen))
	}
}

// Two maps have one mapKey exactly when they are equal, whichever encoding their keys and
// values take (a byte per key, listed by mask, sorted).
func TestMapKeyIsCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := []int{-1, 0, 1, 2, 5, 62, 63, 64, 1000}
	vals := []int{-1, 0, 1, 7, 253, 254, 255, 300}
	strs := []string{"", "a", "a,2:b", "1#", "dwrr"}
	check := func(t *testing.T, key []byte, canon string, byKey map[string]string) {
		t.Helper()
		if prev, ok := byKey[string(key)]; ok && prev != canon {
			t.Fatalf("%s and %s have one key %q", prev, canon, key)
		}
		byKey[string(key)] = canon
	}
	ints, bools, ss := map[string]string{}, map[string]string{}, map[string]string{}
	intCanon, boolCanon, strCanon := map[string]string{}, map[string]string{}, map[string]string{}
	for range 5000 {
		mi, mb, ms := map[int]int{}, map[int]bool{}, map[int]string{}
		for range r.IntN(4) {
			k := keys[r.IntN(len(keys))]
			mi[k] = vals[r.IntN(len(vals))]
			mb[k] = r.IntN(2) == 0
			ms[k] = strs[r.IntN(len(strs))]
		}
		// fmt prints maps sorted: a canonical form to hold the key against
		for _, c := range []struct {
			key     []byte
			canon   string
			byKey   map[string]string
			byCanon map[string]string
		}{
			{mapKey(nil, intMaps, mi), fmt.Sprint(mi), ints, intCanon},
			{mapKey(nil, boolMaps, mb), fmt.Sprint(mb), bools, boolCanon},
			{mapKey(nil, stringMaps, ms), fmt.Sprintf("%#v", ms), ss, strCanon},
		} {
			check(t, c.key, c.canon, c.byKey)
			check(t, []byte(c.canon), string(c.key), c.byCanon)
		}
	}
	if len(ints) < 500 {
		t.Errorf("only %d distinct int maps", len(ints))
	}
	for _, c := range []struct{ got, want string }{
		{string(mapKey(nil, intMaps, map[int]int{3: 3, 0: 1})), "iD\x02\x00\x00\x04"}, // a DSCP or priority map
		{string(mapKey(nil, boolMaps, map[int]bool{1: false, 3: true})), "bD\x00\x01\x00\x02"},
		{string(mapKey(nil, intMaps, map[int]int{3: 300, 0: 1})), "i0:1,3:300,"},
		{string(mapKey(nil, intMaps, map[int]int{64: 1, 0: 1})), "i0:1,64:1,"},
		{string(mapKey(nil, stringMaps, map[int]string{6: "strict", 3: "dwrr"})), "s3:4#dwrr,6:6#strict,"},
	} {
		if c.got != c.want {
			t.Errorf("mapKey = %q, want %q", c.got, c.want)
		}
	}
}

// A SONiC port's buffer maps (number-keyed, of structs) are rebuilt with their strings
// detached, one map per device as before: only int, bool and string maps are shared.
func TestDetachSwitchBufferMaps(t *testing.T) {
	out := "pg_lossless_100000_5m_profile AZURE_LOSSLESS ingress_lossless_pool"
	prof, ecn, pool := out[:29], out[30:44], out[45:]
	mk := func() *topology.Device {
		return &topology.Device{Name: "leaf", Switch: &topology.SwitchFacts{Ports: []*topology.SwitchPort{{
			Name: "Ethernet0",
			Headroom: topology.Known(topology.Headroom{PGs: map[int]topology.PGHeadroom{3: {Profile: prof, Xoff: 1}, 4: {Profile: prof}}},
				topology.Evidence{}),
			ECNOrder: topology.Known(topology.ECNOrder{
				Queues: map[int]topology.ECNThreshold{3: {Profile: ecn, KMin: 1, KMax: 2}},
				PGs:    map[int]topology.PFCThreshold{3: {Profile: prof, Pool: pool, Reserved: 5}},
			}, topology.Evidence{}),
		}}}}
	}
	a, b, want := mk(), mk(), mk()
	before := a.Switch.Ports[0].Headroom.Value.PGs
	in := newInterner(1)
	in.detach(a)
	in.detach(b)
	if diff := cmp.Diff(want, a); diff != "" {
		t.Fatalf("detach changed the facts (-want +got):\n%s", diff)
	}
	pa, pb := a.Switch.Ports[0], b.Switch.Ports[0]
	for _, s := range []string{pa.Headroom.Value.PGs[3].Profile, pa.Headroom.Value.PGs[4].Profile,
		pa.ECNOrder.Value.Queues[3].Profile, pa.ECNOrder.Value.PGs[3].Profile, pa.ECNOrder.Value.PGs[3].Pool} {
		if within(s, out) {
			t.Errorf("%q still points into the output", s)
		}
	}
	if !sameMemory(pa.ECNOrder.Value.PGs[3].Pool, pb.ECNOrder.Value.PGs[3].Pool) {
		t.Error("a pool name is not shared between devices")
	}
	ptr := func(v any) unsafe.Pointer { return reflect.ValueOf(v).UnsafePointer() }
	if ptr(pa.Headroom.Value.PGs) == ptr(before) {
		t.Error("a map holding strings was not rebuilt")
	}
	if ptr(pa.Headroom.Value.PGs) == ptr(pb.Headroom.Value.PGs) || ptr(pa.ECNOrder.Value.Queues) == ptr(pb.ECNOrder.Value.Queues) {
		t.Error("a buffer map was shared between devices")
	}
}

// A string set in several facts is one string, and so is its copy; a string and a prefix of
// it (the same bytes, fewer of them) stay two, however many prefixes there are.
func TestDetachRepeatedStringsAndPrefixes(t *testing.T) {
	out := "ens1np0 ibv_devinfo -v " + strings.Repeat("0123456789", 100)
	name, prefix, cmd := out[:7], out[:4], out[8:22]
	var prefixes []string
	for n := range len(out) {
		prefixes = append(prefixes, out[:n+1])
	}
	mk := func() *topology.Device {
		dev := &topology.Device{Name: prefix, Host: &topology.HostFacts{}}
		dev.Host.AppSettings.Value = []topology.AppSetting{{Key: name, Value: out[:11]}}
		for range 3 { // each more than one batch
			dev.Host.Ports = append(dev.Host.Ports, &topology.HostPort{
				Netdev: name, LAGMaster: prefix, LAGSlaves: slices.Clone(prefixes),
				Link:  topology.Known(topology.Netdev{Name: name, Lower: prefix}, topology.Evidence{Command: cmd}),
				State: topology.Known(topology.RDMAPort{State: out[:7]}, topology.Evidence{Command: out[8:11]}),
			})
		}
		return dev
	}
	dev, want := mk(), mk()
	in := newInterner(1)
	in.detach(dev)
	if diff := cmp.Diff(want, dev); diff != "" {
		t.Fatalf("detach changed the facts (-want +got):\n%s", diff)
	}
	visitStrings(reflect.ValueOf(dev), func(s string) {
		if within(s, out) {
			t.Errorf("%q still points into the output", s)
		}
		if s != "" && !sameMemory(s, in.m[s]) {
			t.Errorf("%q is not the run's one copy", s)
		}
	}, nil)
}

// detach is detachLike with no kind: each v compared with no earlier one.
func (in *interner) detach(v any) { in.detachLike(v, "") }
