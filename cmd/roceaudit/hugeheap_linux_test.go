//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestAdviseHugeHeapMarksTheRangeTheHeapGrowsInto(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skipf("this kernel has no transparent huge pages: %v", err)
	}
	t.Setenv("GODEBUG", "")
	advised := adviseHugeHeap(32 << 20)
	total := uintptr(0)
	for _, r := range advised {
		total += r.hi - r.lo
		flags := vmaFlags(t, r.lo, r.hi)
		if len(flags) == 0 {
			t.Fatalf("no mapping covers [%#x, %#x)", r.lo, r.hi)
		}
		for _, f := range flags {
			if !strings.Contains(" "+f+" ", " hg ") {
				t.Fatalf("a mapping in the advised range [%#x, %#x) lacks the huge page flag: VmFlags %q", r.lo, r.hi, f)
			}
		}
	}
	if total < 24<<20 {
		t.Fatalf("advised %d MiB in %d ranges, want most of 32 MiB", total>>20, len(advised))
	}
}

func TestMergeRangesJoinsTouchingRanges(t *testing.T) {
	got := mergeRanges([]addrRange{{40, 50}, {0, 10}, {10, 20}, {30, 40}, {45, 60}})
	want := []addrRange{{0, 20}, {30, 60}}
	if !slices.Equal(got, want) {
		t.Fatalf("mergeRanges = %v, want %v", got, want)
	}
}

func TestAdviseHugeHeapHonoursGodebugDisablethp(t *testing.T) {
	t.Setenv("GODEBUG", "madvdontneed=1,disablethp=1")
	if advised := adviseHugeHeap(32 << 20); len(advised) != 0 {
		t.Fatalf("advised %v with disablethp=1", advised)
	}
	t.Setenv("GODEBUG", "disablethp=2") // any nonzero value turns the runtime's THP off
	if advised := adviseHugeHeap(32 << 20); len(advised) != 0 {
		t.Fatalf("advised %v with disablethp=2", advised)
	}
}

// vmaFlags returns the VmFlags lines of the mappings in /proc/self/smaps overlapping [begin, end).
func vmaFlags(t *testing.T, begin, end uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := vmaRange(line); ok {
			in = lo < end && hi > begin
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(fmt.Errorf("reading smaps: %w", err))
	}
	return out
}

func vmaRange(line string) (lo, hi uintptr, ok bool) {
	field, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(field, "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}

// A block overlapping pages the heap used before is zeroed whole by the allocator: advising
// 256 MiB must not fault them in (it once took a check's RSS to 1 GiB, now and then).
func TestAdviseHugeHeapTouchesNoFreshPages(t *testing.T) {
	t.Setenv("GODEBUG", "")
	for range 5 {
		used := make([][]byte, 64)
		for i := range used {
			used[i] = make([]byte, 64<<10)
			used[i][0] = 1
		}
		used = nil
		runtime.GC()
		peak := peakResidentSince(t)
		before := peak()
		adviseHugeHeap(256 << 20)
		if grew := peak() - before; grew > 32<<20 {
			t.Fatalf("advising 256 MiB of heap made %d MiB resident", grew>>20)
		}
	}
}

// peakResidentSince resets the process's peak RSS (VmHWM) and returns a function reading it.
func peakResidentSince(t *testing.T) func() int64 {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak RSS: %v", err)
	}
	return func() int64 {
		raw, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatalf("reading /proc/self/status: %v", err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err != nil {
					t.Fatalf("VmHWM %q: %v", v, err)
				}
				return kb << 10
			}
		}
		t.Fatal("no VmHWM in /proc/self/status")
		return 0
	}
}
