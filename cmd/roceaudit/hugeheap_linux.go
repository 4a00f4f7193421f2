//go:build linux

package main

import (
	"cmp"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"syscall"
	"unsafe"

	"github.com/roceaudit/roceaudit/internal/godebug"
)

// Page faults were 13-17% of an 8-rail 1,000-device audit's CPU (perf: 74k faults, one per
// 4 KiB of a heap that grows to ~270 MiB, ~11 us each on this paravirtualized 2-core VM).
// The Go runtime no longer asks for transparent huge pages, and the kernel's default mode
// (madvise) gives them only where asked. adviseHugeHeap asks for the address range the
// heap grows into next: it maps that much heap, advises MADV_HUGEPAGE (kept by the
// mapping after the pages are released) and gives it back, so the run faults 2 MiB at a
// time. Measured: faults 77k -> 8.5k, CPU per device 4.4-4.8 -> 3.8-4.2 ms, peak RSS
// 239-257 -> 280-292 MiB. GODEBUG=disablethp=1, Go's own switch, turns it off (read as the
// runtime reads it). A long-lived process (lab up) may see khugepaged fill advised 2 MiB
// ranges the scavenger had partly released (golang/go#64332): its RSS can creep toward the
// advised size, never past it.
//
// The allocator clears a large block whole when any of its pages was used before and is
// not released to the OS: one block of the whole size now and then did, and the clear
// faulted in 1 GiB (a check's peak RSS 110 MiB -> 1 GiB, 3 s). So every free page is released
// first (a block of released or never-used pages needs no clear, unless another goroutine
// frees pages meanwhile: then a clear is one block), the heap is mapped in blocks of the
// runtime's growth unit, and a heap already past maxHeapToAdvise is left as is: the advice
// is for a run's start, where the collection before it is cheap and nothing else allocates.
const (
	hugePageBytes   = 2 << 20
	adviseBlock     = 4 << 20 // the runtime's unit of heap growth (a page-allocator chunk)
	maxHeapToAdvise = 64 << 20
)

// addrRange is [lo, hi) in the address space.
type addrRange struct{ lo, hi uintptr }

// adviseHugeHeap advises huge pages for the next n bytes of heap and returns the ranges advised.
func adviseHugeHeap(n int64) []addrRange {
	env := os.Getenv("GODEBUG")
	off, _ := godebug.Value(env, "disablethp")
	dontneed, set := godebug.Value(env, "madvdontneed") // 0: released pages are cleared on reuse
	if off != 0 || (set && dontneed == 0) || n < 2*hugePageBytes || heapObjectBytes() > maxHeapToAdvise {
		return nil
	}
	debug.FreeOSMemory()
	blocks := make([][]byte, 0, (n+adviseBlock-1)/adviseBlock)
	spans := make([]addrRange, 0, cap(blocks))
	for mapped := int64(0); mapped < n; mapped += adviseBlock {
		b := make([]byte, adviseBlock) // fresh pages: mapped, not touched
		blocks = append(blocks, b)
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		spans = append(spans, addrRange{lo, lo + adviseBlock})
	}
	var advised []addrRange
	for _, r := range mergeRanges(spans) {
		lo := (r.lo + hugePageBytes - 1) &^ (hugePageBytes - 1)
		hi := r.hi &^ (hugePageBytes - 1)
		if lo >= hi {
			continue
		}
		// The blocks, alive until KeepAlive below, hold [lo, hi): no pointer is needed.
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE); errno == 0 {
			advised = append(advised, addrRange{lo, hi})
		}
	}
	runtime.KeepAlive(blocks)
	blocks = nil
	debug.FreeOSMemory() // collect the blocks and release their pages; the advice stays
	return advised
}

// mergeRanges sorts rs and joins the ranges that touch.
func mergeRanges(rs []addrRange) []addrRange {
	slices.SortFunc(rs, func(a, b addrRange) int { return cmp.Compare(a.lo, b.lo) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// heapObjectBytes is the heap's objects now, live or not yet swept.
func heapObjectBytes() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
