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
