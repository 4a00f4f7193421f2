//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestAdviseHugeHeapMarksTheRangeTheHeapGrowsInto(t *testing.T) {
	t.Setenv("GODEBUG", "")
	begin, end := adviseHugeHeap(32 << 20)
	if begin == 0 || end-begin < 28<<20 {
		t.Fatalf("advised [%#x, %#x), want most of 32 MiB", begin, end)
	}
	flags := vmaFlags(t, begin, end)
	if len(flags) == 0 {
		t.Fatalf("no mapping covers [%#x, %#x)", begin, end)
	}
	for _, f := range flags {
		if !strings.Contains(" "+f+" ", " hg ") {
			t.Fatalf("a mapping in the advised range lacks the huge page flag: VmFlags %q", f)
		}
	}
}

func TestAdviseHugeHeapHonoursGodebugDisablethp(t *testing.T) {
	t.Setenv("GODEBUG", "madvdontneed=1,disablethp=1")
	if begin, end := adviseHugeHeap(32 << 20); begin != end {
		t.Fatalf("advised [%#x, %#x) with disablethp=1", begin, end)
	}
	t.Setenv("GODEBUG", "disablethp=1,disablethp=0")
	if !(godebugSet("disablethp") == false) {
		t.Fatal("a later disablethp=0 should win")
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
