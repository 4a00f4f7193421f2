package checks_test

import (
	"os"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkRunSnapshot runs the catalog, with the platforms' remediation as check does, on
// the snapshot ROCEAUDIT_BENCH_SNAPSHOT names (read once, as check reads it): the checks'
// share of `roceaudit check`, the deadlock analysis and link resolution included.
// cpu-ns/op is the process's CPU time, GC included: steadier than wall time on a shared
// machine.
func BenchmarkRunSnapshot(b *testing.B) {
	path := os.Getenv("ROCEAUDIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("ROCEAUDIT_BENCH_SNAPSHOT not set")
	}
	snap, err := topology.OpenSnapshot(path, topology.ReadOptions{CheckedCounters: true})
	if err != nil {
		b.Fatal(err)
	}
	opts := checks.Options{Remedy: platforms.Registry().Remedy}
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		if len(checks.Run(snap, opts)) == 0 {
			b.Fatal("no result")
		}
	}
}
