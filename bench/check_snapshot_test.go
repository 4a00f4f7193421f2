package bench

import (
	"os"
	"runtime"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkCheckSnapshot reads the snapshot ROCEAUDIT_BENCH_SNAPSHOT names as `check` does
// and runs the checks on it, reporting the live heap after reading and after checking (what
// bounds check's peak RSS). E.g. ROCEAUDIT_BENCH_SNAPSHOT=/path/10k.json.gz go test
// -run '^$' -bench CheckSnapshot -benchtime 1x -cpuprofile cpu.out ./bench
func BenchmarkCheckSnapshot(b *testing.B) {
	path := os.Getenv("ROCEAUDIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("ROCEAUDIT_BENCH_SNAPSHOT not set")
	}
	reg := platforms.Registry()
	for b.Loop() {
		snap, err := topology.OpenSnapshot(path, topology.ReadOptions{CheckedCounters: true})
		if err != nil {
			b.Fatal(err)
		}
		read := liveHeap()
		results := checks.Run(snap, checks.Options{Remedy: reg.Remedy})
		if len(results) == 0 {
			b.Fatal("no result")
		}
		b.ReportMetric(float64(read)/(1<<20), "MB-live-read")
		b.ReportMetric(float64(liveHeap())/(1<<20), "MB-live-checked")
		b.ReportMetric(float64(len(results)), "results")
		runtime.KeepAlive(snap)
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
