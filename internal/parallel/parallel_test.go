package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		counts := make([]atomic.Int32, n)
		var workers atomic.Int32
		Each(n, func() func(int) {
			workers.Add(1)
			return func(i int) { counts[i].Add(1) }
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d ran %d times", n, i, c)
			}
		}
		if w := int(workers.Load()); w > min(runtime.GOMAXPROCS(0), n) {
			t.Errorf("n=%d: %d workers", n, w)
		}
	}
}

// A worker's own state is never shared: each index sees the state of the worker running it.
func TestEachWorkerStateIsItsOwn(t *testing.T) {
	const n = 500
	owner := make([]*int, n)
	Each(n, func() func(int) {
		mine := new(int)
		return func(i int) { *mine++; owner[i] = mine }
	})
	total := 0
	seen := map[*int]bool{}
	for _, p := range owner {
		if !seen[p] {
			seen[p] = true
			total += *p
		}
	}
	if total != n {
		t.Errorf("workers counted %d indexes, want %d", total, n)
	}
}
