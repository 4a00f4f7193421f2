package collectors

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
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
	// detachDepth bounds the walk; the model is a tree a few levels deep.
	detachDepth = 32
)

// interner hands out one shared copy of each string up to internMax, and of each
// number-keyed map (QoS tables: DSCP to class, priority to class, queue to scheduler), for
// one collection run. A fabric configured alike has the same tables on every port: in an
// 8-rail 1,000-device audit they were most of the ~45 MB of QoS maps. Facts are read-only once collected,
// so ports may share one map.
type interner struct {
	mu   sync.Mutex
	m    map[string]string
	maps map[string]any // canonical encoding -> the shared map
	key  []byte         // scratch for the encoding, under mu
	keys []int
}

func newInterner() *interner { return &interner{m: map[string]string{}, maps: map[string]any{}} }

// shareMap returns the run's one map equal to m (m itself, its strings detached, the first
// time). tag tells map types apart; enc appends a value unambiguously.
func shareMap[V any](in *interner, tag byte, m map[int]V, enc func([]byte, V) []byte, own func(V) V) map[int]V {
	if m == nil {
		return nil
	}
	in.mu.Lock()
	keys := in.keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	key := append(in.key[:0], tag)
	for _, k := range keys {
		key = strconv.AppendInt(key, int64(k), 10)
		key = append(key, ':')
		key = enc(key, m[k])
		key = append(key, ',')
	}
	in.keys, in.key = keys, key
	if c, ok := in.maps[string(key)]; ok {
		in.mu.Unlock()
		return c.(map[int]V)
	}
	full := len(in.maps) >= internEntries
	k := string(key)
	in.mu.Unlock()
	c := make(map[int]V, len(m))
	for k, v := range m {
		c[k] = own(v)
	}
	if !full {
		in.mu.Lock()
		if prev, ok := in.maps[k]; ok {
			c = prev.(map[int]V)
		} else {
			in.maps[k] = c
		}
		in.mu.Unlock()
	}
	return c
}

func appendIntValue(b []byte, v int) []byte   { return strconv.AppendInt(b, int64(v), 10) }
func appendBoolValue(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }
func appendStringValue(b []byte, v string) []byte {
	return append(strconv.AppendInt(b, int64(len(v)), 10), "#"+v...) // length-prefixed: any byte may follow
}
func same[V any](v V) V { return v }

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

// detach rewrites every string reachable from v (a pointer) with its own copy.
func (in *interner) detach(v any) {
	d := &detacher{in: in, same: map[strRef]string{}}
	d.walk(reflect.ValueOf(v), 0)
}

// detacher is one detach: a parser may share one long string between several facts, and a
// copy for each would multiply it, so a string too long to intern is copied once per place
// its bytes are.
type detacher struct {
	in   *interner
	same map[strRef]string
}

// strRef is where a string's bytes are.
type strRef struct {
	p *byte
	n int
}

func (d *detacher) copyOf(s string) string {
	if len(s) <= internMax {
		return d.in.copyOf(s)
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
	d.same[r] = c
	return c
}

func (d *detacher) walk(v reflect.Value, depth int) {
	if depth > detachDepth || !holdsStrings(v.Type()) {
		return
	}
	if v.CanAddr() && d.fast(v.Addr().Interface()) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(d.copyOf(v.String()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			d.walk(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			d.walk(v.Field(i), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			d.walk(v.Index(i), depth+1)
		}
	case reflect.Map:
		// Keys cannot be rewritten in place: the map is rebuilt from copies.
		if v.IsNil() || !v.CanSet() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(it.Key())
			d.walk(k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			d.walk(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		e := reflect.New(v.Elem().Type()).Elem()
		e.Set(v.Elem())
		d.walk(e, depth+1)
		v.Set(e)
	}
}

// fast handles the common shapes without reflection (counters are most of a host's
// strings); it reports whether it did.
func (d *detacher) fast(p any) bool {
	switch p := p.(type) {
	case *string:
		*p = d.copyOf(*p)
	case *[]string:
		for i, s := range *p {
			(*p)[i] = d.copyOf(s)
		}
	case *map[string]int64:
		if *p != nil {
			// One lock for the whole map, not one per counter name: a host's hundreds of
			// names each took and released it.
			m := make(map[string]int64, len(*p))
			d.in.mu.Lock()
			for k, v := range *p {
				if len(k) <= internMax && k != "" {
					k = d.in.copyOfLocked(k)
				} else {
					k = d.copyOfUnlocked(k)
				}
				m[k] = v
			}
			d.in.mu.Unlock()
			*p = m
		}
	case *map[int]int:
		*p = shareMap(d.in, 'i', *p, appendIntValue, same[int])
	case *map[int]bool:
		*p = shareMap(d.in, 'b', *p, appendBoolValue, same[bool])
	case *map[int]string:
		*p = shareMap(d.in, 's', *p, appendStringValue, d.in.copyOf)
	case *map[string]string:
		if *p != nil {
			m := make(map[string]string, len(*p))
			for k, v := range *p {
				m[d.copyOf(k)] = d.copyOf(v)
			}
			*p = m
		}
	default:
		return false
	}
	return true
}

// stringTypes caches whether a type holds any string or number-keyed map, so other numeric
// subtrees are not walked.
var stringTypes sync.Map // reflect.Type -> bool

func holdsStrings(t reflect.Type) bool {
	if b, ok := stringTypes.Load(t); ok {
		return b.(bool)
	}
	b := typeHoldsStrings(t, map[reflect.Type]bool{})
	stringTypes.Store(t, b)
	return b
}

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
