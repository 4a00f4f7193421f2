//go:build unix

package benchcpu

import (
	"testing"
	"time"
)

// Work on this goroutine shows in the process's CPU time.
func TestProcessCountsWork(t *testing.T) {
	start := Process()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for i := 0; time.Now().Before(deadline) && i < 1<<30; i++ {
		x += i
	}
	_ = x
	if got := Process() - start; got < 10*time.Millisecond {
		t.Errorf("50ms of spinning counted %v of CPU", got)
	}
}
