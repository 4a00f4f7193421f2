// Package benchcpu measures benchmarks in CPU time (user and system, the whole process's):
// on a machine shared with other benchmarks a steadier measure than wall time, and one that
// counts the GC and the goroutines a benchmark's work wakes on the other cores.
package benchcpu

import (
	"testing"
	"time"
)

// Process is the CPU time the process has used (0 where it cannot be read).
func Process() time.Duration {
	d, _ := process()
	return d
}

// Report, deferred at the start of the timed loop (defer benchcpu.Report(b)()), reports the
// process's CPU per op as cpu-ns/op.
func Report(b *testing.B) func() {
	b.Helper()
	start, err := process()
	if err != nil {
		b.Fatal(err)
	}
	return func() {
		end, err := process()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
