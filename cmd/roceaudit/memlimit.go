package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
)

// Peak RSS was about twice the live heap: with the default GC pacing the heap grows to
// twice what is live before a collection, and pages freed after a burst (200 devices'
// outputs in flight) stay mapped until the background scavenger returns them. A soft
// memory limit scaled to the fabric makes the runtime collect and return memory sooner.
// Measured (8-rail 1,000-device lab, --concurrency 200): collect 446 -> 290 MB, audit 438 ->
// 305 MB, CPU the same within noise; 10,000 devices: collect 968 -> 874 MB, audit 2.1 -> 1.1
// GB. A limit under the live heap makes the GC run back to back (up to half the CPU: a
// 10,000-device audit whose check results peak at ~1 GB live took 40% more CPU), so after
// every GC the limit is raised to at least memLiveHeadroom times what is live.
const (
	memLimitBase      = 192 << 20
	memLimitPerDevice = 80 << 10
	memLiveHeadroom   = 1.25
)

// limitMemory sets the soft memory limit for a run over devices devices, unless GOMEMLIMIT
// says otherwise (or under go test, where one process runs many small fabrics).
func limitMemory(devices int) {
	adviseHugeHeapOnce(memLimitFor(devices)) // the heap grows from here
	if os.Getenv("GOMEMLIMIT") != "" || testing.Testing() {
		return
	}
	memGuard.mu.Lock()
	defer memGuard.mu.Unlock()
	memGuard.floor = memLimitFor(devices)
	debug.SetMemoryLimit(memGuard.floor)
	if !memGuard.armed {
		memGuard.armed = true
		armMemGuard()
	}
}

// collectLessWhileChecking collects once what reading left behind, then lets the heap grow
// further than GOGC's default before the next collection. Checking allocates the results
// and keeps nearly all of it until the report is written, so a collection then frees little;
// and reading leaves garbage (~100 MB at 10,000 devices: scratch, line blocks), which the
// results reuse once collected instead of faulting in fresh pages (~5 us each on this 2-core
// VM); without this collection, no faster within noise. Checking the
// 10,000-device snapshot (gctrace, perf): three collections during the checks became one,
// wall 2.7-2.8 -> 2.4-2.5 s, user CPU 4.1 -> 3.7 s, peak RSS ~880 -> ~855 MB; GOGC 400 was no
// faster and took RSS to ~920 MB. The collection runs beside the first, serial, part of
// the checks (the links resolved) rather than before it: 15 interleaved runs each, median
// wall 2.75 -> 2.57 s, peak RSS 793 -> 765 MB.
// GOGC or GOMEMLIMIT set by the user win.
func collectLessWhileChecking() {
	if gcPacedElsewhere() {
		return
	}
	go runtime.GC()
	debug.SetGCPercent(checkGCPercent)
}

const checkGCPercent = 200

// paceCollection lets the heap grow, while devices are collected, to half the run's memory
// limit before each collection rather than to twice what is live. Early in a run little is
// live, and at GOGC 100 the collections came every few MB, each re-marking the facts kept
// so far: 28-30 in an 8-rail 1,000-device audit, GC ~16% of its CPU. Once GOGC 100's goal
// passes that share, the pacing is GOGC 100's, so the peak is no higher than the share or
// than before. At 70% of the limit a 10,000-device collect's peak RSS rose 552 -> 926-939
// MiB, too near the 1 GiB target; at half, 763 MiB, with as few GCs within noise (30 against
// 24; 50 before). A fixed GOGC 200 took the 10,000-device audit to ~1,000 MiB. After every
// GC, afterGC sets the next goal (paceFor).
func paceCollection() {
	if gcPacedElsewhere() {
		return
	}
	memGuard.mu.Lock()
	defer memGuard.mu.Unlock()
	memGuard.collecting = true
	debug.SetGCPercent(paceFor(memGuard.floor, 0, 0))
}

// stopPacingCollection ends paceCollection's pacing; collectTo defers it, so the checks that
// follow pace themselves from GOGC's default.
func stopPacingCollection() {
	memGuard.mu.Lock()
	defer memGuard.mu.Unlock()
	if memGuard.collecting {
		memGuard.collecting = false
		debug.SetGCPercent(100)
	}
}

// collectHeapShare is the share of the memory limit the heap may reach before a collection
// while devices are collected; collectMaxGCPercent bounds the GOGC that takes.
const (
	collectHeapShare    = 0.5
	collectMaxGCPercent = 2000
)

// paceFor is the GOGC that puts the next collection at collectHeapShare of limit with live
// bytes live and roots bytes of stacks and globals (the runtime's goal is live + (live +
// roots) * GOGC/100), never under 100 (GOGC's default).
func paceFor(limit, live, roots int64) int {
	goal := collectHeapShare * float64(limit)
	scanned := float64(live + roots)
	if scanned <= 0 || float64(live)+scanned*collectMaxGCPercent/100.0 <= goal {
		return collectMaxGCPercent
	}
	return max(100, int(100*(goal-float64(live))/scanned))
}

// gcPacedElsewhere is whether the user paces the GC (GOGC, GOMEMLIMIT) or go test runs many
// fabrics in one process: then no command changes the pacing.
func gcPacedElsewhere() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || testing.Testing()
}

// collectLessWhileReading raises GOGC until the function it returns is called. Nearly all a
// snapshot's reader allocates stays live (the facts), so the collections of a heap that only
// grows (nine while reading the 10,000-device snapshot) re-mark it and free little: at 400,
// check of that snapshot 2.57 -> 2.49 s median wall (7 runs each), peak RSS the same, as
// collectLessWhileChecking collects what reading left. How many devices are coming is not
// known yet, so the memory limit of readDevices devices bounds the heap meanwhile (past it,
// the limit follows the live heap, as in any run); readSnapshots then sets the fabric's.
func collectLessWhileReading() (restore func()) {
	adviseHugeHeapOnce(memLimitFor(readDevices)) // before the snapshots fill the heap, GOGC set or not
	if gcPacedElsewhere() {
		return func() {}
	}
	limitMemory(readDevices)
	old := debug.SetGCPercent(readGCPercent)
	return func() { debug.SetGCPercent(old) }
}

const (
	readGCPercent = 400
	readDevices   = 10240 // a limit of ~1 GiB
)

// adviseHugeHeapOnce advises huge pages for the next n bytes of heap (adviseHugeHeap) the
// first time a process calls it; not under go test, where one process runs many fabrics.
func adviseHugeHeapOnce(n int64) {
	if !testing.Testing() {
		hugeHeapOnce.Do(func() { adviseHugeHeap(n) })
	}
}

var hugeHeapOnce sync.Once

func memLimitFor(devices int) int64 {
	return memLimitBase + int64(max(devices, 0))*memLimitPerDevice
}

var memGuard struct {
	mu         sync.Mutex
	floor      int64
	armed      bool
	collecting bool // paceCollection's pacing is on
}

// armMemGuard runs afterGC once after the next garbage collection (a finalizer runs once
// its object is found unreachable), and afterGC arms it again: one check per GC cycle.
func armMemGuard() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { afterGC(); armMemGuard() })
}

// gcSentinel holds a pointer so it is never packed with other tiny objects by the
// allocator (a finalizer on such an object may never run).
type gcSentinel struct {
	_ *byte
	_ [16]byte
}

// gcSamples are what afterGC reads: the live heap, and the stacks and globals the GC also
// scans (GOGC grows the heap by a share of all three).
var gcSamples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}

func afterGC() {
	memGuard.mu.Lock()
	defer memGuard.mu.Unlock()
	metrics.Read(gcSamples)
	var v [3]int64
	for i, s := range gcSamples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = int64(s.Value.Uint64())
		}
	}
	live := v[0]
	debug.SetMemoryLimit(limitOver(memGuard.floor, live))
	if memGuard.collecting {
		debug.SetGCPercent(paceFor(memGuard.floor, live, v[1]+v[2]))
	}
}

// limitOver is the limit for a run whose estimate is floor and whose heap has live bytes.
func limitOver(floor, live int64) int64 {
	return max(floor, int64(float64(live)*memLiveHeadroom))
}
