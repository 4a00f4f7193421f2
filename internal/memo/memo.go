// Package memo remembers a pure function of a string for the few hundred names a fleet
// repeats (counter names), read without a lock.
package memo

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Memo holds f(name) for up to max names. Readers load the current map and never lock; a
// miss adds to a copy under the lock. A sync.Map cost three times a plain map's look-up, and
// a mutex per look-up was contended by a host's concurrent parsers. The bound keeps the
// copies (at most max, of at most max entries) and the memory small whatever names a device
// prints; past it, f is called.
type Memo[V any] struct {
	f   func(string) V
	max int
	mu  sync.Mutex
	m   atomic.Pointer[map[string]V]
}

// New is a Memo of f holding at most max names.
func New[V any](max int, f func(string) V) *Memo[V] { return &Memo[V]{f: f, max: max} }

// Get is f(name), remembered.
func (m *Memo[V]) Get(name string) V {
	if v, ok := m.Map()[name]; ok {
		return v
	}
	v := m.f(name)
	m.remember([]string{name}, func(string) V { return v })
	return v
}

// Map is the memo as it is now, for a batch of look-ups: a name it lacks is for Add.
func (m *Memo[V]) Map() map[string]V {
	if p := m.m.Load(); p != nil {
		return *p
	}
	return nil
}

// Add remembers f of the names the memo lacks, one copy of the map for all of them.
func (m *Memo[V]) Add(names ...string) { m.remember(names, m.f) }

// remember adds value(name) for the names the memo lacks.
func (m *Memo[V]) remember(names []string, value func(string) V) {
	if len(names) == 0 || len(m.Map()) >= m.max {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.Map()
	fresh := make(map[string]V, min(len(old)+len(names), m.max))
	for k, v := range old {
		fresh[k] = v
	}
	for _, name := range names {
		if len(fresh) >= m.max {
			break
		}
		if _, ok := fresh[name]; !ok {
			fresh[strings.Clone(name)] = value(name) // a clone: name may be a piece of an output
		}
	}
	if len(fresh) > len(old) {
		m.m.Store(&fresh)
	}
}
