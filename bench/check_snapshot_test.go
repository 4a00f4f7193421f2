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
//
// perf record -g of the binary (the Go profiler does not see the kernel) then put a quarter of
// check's CPU in page faults, ~5 us each on the 2-core VM: most were copy-on-write faults
// with a TLB shootdown (do_wp_page), where a GC cycle had read a fresh, never-written page
// (the results slice, scanned before the workers filled it, mapping the kernel's zero page)
// and a write then copied it. Writing that slice through first cut minor faults 290k ->
// 220k. A per-phase timing showed the deadlock analysis as the checks' long pole: its path
// queries share one backward search per destination (every leaf asks for the same ones)
// and scan compact arc arrays (BenchmarkAnalyseDeadlock 10k 475 -> 229 ms, 150 -> 88 MB).
// gctrace showed twelve collections, three during the checks re-marking a heap that only
// grows: GOGC 400 while reading, one collection after it (what reading left is reused, not
// faulted in) and GOGC 200 while checking leave six in all, one during the checks. Link
// results sized once; the report's port set built once per run of results. 10k check on the
// same machine: 2.9-3.5 -> 2.35-2.45 s wall, 4.8 -> 4.2 s CPU, 880 -> 800 MB. Left (perf):
// decoding ~1.7 s of CPU, a fifth of it page faults (the runtime's heap bits at the end of
// each fresh span are read before written) and a fifth intern-map look-ups (3.5M strings,
// 94% seen before); gunzip ~0.55 s on the reader goroutine; device checks ~0.5 s; the
// deadlock analysis ~0.4 s. Tried and dropped, no faster within noise: comparing each
// string with the one at its place in the last device of its platform (66% hits); keeping
// each decoded fact by its JSON text (~90% of fact bytes repeat, but hashing and comparing
// a fact's text costs what decoding it with interned strings does); skipping evidence
// (validating the skipped strings byte by byte was slower than interning them); bounding
// queued lines by bytes; PGO (1-2%). Decoding is per-byte work, CPU-bound on two cores
// beside gunzip: the 2 s target needs fewer bytes to read, not overlap or a faster map.
// Next round (profiles of the decoder alone on the 10k devices, perf for faults, a per-phase
// timing): strings read a byte at a time were a fifth of decoding, now eight at a time;
// object keys read as strings a sixth, now the expected key is matched in place; lists
// grown in place were a fifth of the page faults (copy-on-write under reflect.Value.Grow),
// now decoded into scratch lists and made at length. The devices' gzip member at level 5
// instead of 1 decompresses ~2.5x faster (gunzip 0.58 -> 0.14 s in the profile) for the
// same compression time. The collection after reading runs beside the links' resolution;
// the report and its summary line read the million results twice, not five times. 11
// interleaved runs on a noisy day: median 2.90 -> 2.57 s wall, 5.1 -> 4.6 s CPU, min 2.51
// -> 2.14 s. Dropped, no faster within noise: an intern table per struct field; a small
// direct-mapped cache of recent strings in front of the intern map; LLDP matching on every
// core; prefaulting the results on every core; GOEXPERIMENT=nogreenteagc. Then (a per-phase
// timing: read ~0.8 s, links ~0.2 s, checks ~0.65 s, report and summary ~0.15 s, exit ~0.05 s):
// the reader's free list of line blocks dropped what it had no room for, so ~1 MB switch lines
// made 57 fresh 4 MB blocks; at most a fixed number exist now. Links are resolved with struct
// keys, small name lists per host and a MAC matched by hand (BenchmarkResolveLinks 170 -> 137
// ms); results share only actual and message texts. 11 interleaved runs on one snapshot: median
// 2.01 -> 1.90 s wall, 3.62 -> 3.34 s CPU. Dropped, no faster within noise: scanning results in
// parallel for the report; no collection after reading; GOGC off while checking (the memory
// limit then starts one anyway); huge pages (madvise) for the results slice (slower: 2.23 s).
// The summary line reuses the report's scan of the results (1.79 -> 1.75 s median).
// Next round (BenchmarkDecodeDevices and BenchmarkRunSnapshot, CPU per op, as wall swung
// +-30-50%): the two guesses dropped above paid once the struct keys were matched in place
// (551k look-ups by name a worker gone) and the intern table was open-addressed with its
// hashes kept: a fact whose text is the one at its place in the last device of the platform
// is copied whole (80% of fact bytes), other strings and maps are compared there first (85%
// hit). Decoding 674 -> 323 ms of CPU per op; checks 1.68 -> 1.32 s (texts by concatenation,
// fewer allocations per port, path walks sharing next hops: deadlock -29%). 10k check,
// interleaved: median 2.13 -> 1.66 s wall, 740 -> 700 MB. Dropped: skipping the collection
// after reading when the heap had grown little since the last (no faster within noise).
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
