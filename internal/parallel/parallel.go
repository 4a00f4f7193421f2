// Package parallel spreads indexed work over the machine's cores.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each runs work(i) once for every i in [0, n) on up to GOMAXPROCS goroutines and returns
// when all are done. newWorker is called once per goroutine, so a worker may keep state of
// its own (a cache) across the indexes it is handed; an index goes to whichever worker is free.
func Each(n int, newWorker func() func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWorker()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				work(i)
			}
		}()
	}
	wg.Wait()
}
