package memo

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// Each name is computed once while the memo has room, read back as computed, and never kept
// as the caller's memory; past the bound, names are computed every time and not kept.
func TestMemoComputesOnceWithinItsBound(t *testing.T) {
	var calls atomic.Int64
	m := New(3, func(s string) int { calls.Add(1); return len(s) })
	buf := []byte("abc-de-f")
	name := unsafe.String(&buf[0], 3) // "abc", a piece of a larger buffer
	for range 3 {
		if got := m.Get(name); got != 3 {
			t.Fatalf("Get(abc) = %d", got)
		}
	}
	if c := calls.Load(); c != 1 {
		t.Errorf("f called %d times for one name asked thrice, want 1", c)
	}
	for k := range m.Map() {
		if unsafe.StringData(k) == &buf[0] {
			t.Error("the memo kept the caller's bytes, not a copy")
		}
	}
	m.Add("de", "f", "ghij", "klmno")
	if got := len(m.Map()); got != 3 {
		t.Errorf("memo of %d names, want its bound 3", got)
	}
	before := calls.Load()
	if m.Get("pqrstu") != 6 || m.Get("pqrstu") != 6 {
		t.Error("a name past the bound read wrong")
	}
	if calls.Load()-before != 2 {
		t.Errorf("a name past the bound asked twice called f %d times, want 2", calls.Load()-before)
	}
}

// Readers and writers at once (run with -race).
func TestMemoConcurrent(t *testing.T) {
	m := New(64, func(s string) string { return "x" + s })
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				name := fmt.Sprint((g * i) % 100)
				if got := m.Get(name); got != "x"+name {
					t.Errorf("Get(%s) = %s", name, got)
					return
				}
			}
		})
	}
	wg.Wait()
}
