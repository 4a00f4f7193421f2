package main

import "testing"

// The limit grows with the fabric: about 270 MiB at 1,000 devices (the 300 MiB target with
// room for the runtime's own memory), under 1 GiB at 10,000.
func TestMemLimitScalesWithTheFabric(t *testing.T) {
	for _, c := range []struct {
		devices  int
		min, max int64
	}{
		{0, 128 << 20, 256 << 20},
		{1000, 256 << 20, 300 << 20},
		{10000, 900 << 20, 1 << 30},
	} {
		if got := memLimitFor(c.devices); got < c.min || got > c.max {
			t.Errorf("%d devices: limit %d MiB, want %d..%d MiB", c.devices, got>>20, c.min>>20, c.max>>20)
		}
	}
	if memLimitFor(-1) != memLimitFor(0) {
		t.Error("a negative count moved the limit")
	}
}

// A heap that outgrows the estimate raises the limit above what is live, so the GC does not
// run back to back; under the estimate the estimate stands.
func TestMemLimitStaysAboveTheLiveHeap(t *testing.T) {
	const mib = 1 << 20
	if got := limitOver(981*mib, 300*mib); got != 981*mib {
		t.Errorf("live 300 MiB under a 981 MiB estimate: limit %d MiB", got/mib)
	}
	if got := limitOver(981*mib, 1000*mib); got != 1250*mib {
		t.Errorf("live 1000 MiB over a 981 MiB estimate: limit %d MiB, want 1250", got/mib)
	}
}

// While devices are collected the next collection waits for the heap to reach half the
// limit, counting the stacks and globals GOGC also grows it by, but never comes later than
// GOGC 100 would put it: the peak is no higher than before.
func TestPaceCollectionTargetsAShareOfTheLimit(t *testing.T) {
	const mib = 1 << 20
	limit := int64(1000 * mib)
	for _, c := range []struct {
		live, roots int64
		want        int
	}{
		{0, 0, collectMaxGCPercent},
		{10 * mib, 0, collectMaxGCPercent},        // 500 MiB would be GOGC 4900: bounded
		{100 * mib, 0, 400},                       // next at 500 MiB
		{100 * mib, 100 * mib, 200},               // 100 + 200 * 2 = 500
		{10 * mib, 10 * mib, collectMaxGCPercent}, // 10 + 20 * 20 = 410, under 500
		{40 * mib, 20 * mib, 766},                 // 40 + 60 * 7.66 = 500
		{250 * mib, 0, 100},                       // 500 MiB is twice the live heap: GOGC's default
		{600 * mib, 10 * mib, 100},                // past it: never under the default
	} {
		got := paceFor(limit, c.live, c.roots)
		if got != c.want {
			t.Errorf("live %d MiB, roots %d MiB of a %d MiB limit: GOGC %d, want %d", c.live/mib, c.roots/mib, limit/mib, got, c.want)
		}
		next := float64(c.live) + float64(c.live+c.roots)*float64(got)/100
		if c.live > 0 && next > max(0.5*float64(limit), float64(c.live)+float64(c.live+c.roots))+1 {
			t.Errorf("live %d MiB: next collection at %.0f MiB, past both half the limit and GOGC 100's goal", c.live/mib, next/mib)
		}
	}
}
