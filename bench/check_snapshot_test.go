package bench

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkCheckSnapshot reads the snapshot ROCEAUDIT_BENCH_SNAPSHOT names as `check` does
// and runs the checks on it, reporting the live heap after reading and after checking (what
// bounds check's peak RSS). E.g. ROCEAUDIT_BENCH_SNAPSHOT=/path/10k.json.gz go test
// -run '^$' -bench 'CheckSnapshot$' -benchtime 1x -cpuprofile cpu.out ./bench
//
// What its profiles of the 10k lab snapshot (9,680 hosts, 320 switches, 571 MB of facts
// JSON) taught: encoding/json was most of check (a validation pass over every line, then
// reflection per key and a new string per value) and the GC of what it built; its ~300 MB
// of strings are ~60 MB distinct and the QoS maps of 50,000 switch ports a handful, so the
// planned decoder interns strings and shares maps by their JSON text (live heap read 723 ->
// 202 MB). Then the deadlock analysis hashed PortRef and [2]string keys per hop of millions
// of paths (2.6 s): as numbered arcs and ports, 1.4 s, its queries on every core beside the
// devices' checks. A million results appended one by one were ~1 GB of regrowth; one slice
// sized by a per-device bound is written in place. The reader goroutine gunzips (~0.65 s,
// serial) and cuts lines: copying each out of the bufio buffer into grown buffers was
// another ~0.4 s, so lines are slices of 4 MB blocks read straight from the stream. The
// deadlock analysis's dependency edges are one per path (640,000 at 10,000 devices): a map
// set of them cost as much as the path queries, a sorted list half that. Left, in CPU at
// 10k: decoding ~1.4 s (string interning look-ups ~0.7), GC ~0.7, deadlock ~0.6, gunzip
// ~0.65, device and link checks ~0.8.
func BenchmarkCheckSnapshot(b *testing.B) {
	path := os.Getenv("ROCEAUDIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("ROCEAUDIT_BENCH_SNAPSHOT not set")
	}
	reg := platforms.Registry()
	for b.Loop() {
		start := time.Now()
		snap, err := topology.OpenSnapshot(path, topology.ReadOptions{CheckedCounters: true})
		if err != nil {
			b.Fatal(err)
		}
		readWall := time.Since(start)
		read := liveHeap()
		start = time.Now()
		results := checks.Run(snap, checks.Options{Remedy: reg.Remedy})
		b.ReportMetric(readWall.Seconds(), "s-read")
		b.ReportMetric(time.Since(start).Seconds(), "s-checks")
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
