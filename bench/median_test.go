package bench

import (
	"strings"
	"testing"
	"time"
)

// The audit reported is the one of median CPU, its note giving the range of all.
func TestMedianByCPU(t *testing.T) {
	r := func(cpu time.Duration, note string) row {
		return row{name: "audit", u: usage{cpu: cpu}, devices: 1000, note: note}
	}
	got := medianByCPU([]row{r(3900*time.Millisecond, "c"), r(2800*time.Millisecond, "a"), r(3300*time.Millisecond, "b")})
	if got.u.cpu != 3300*time.Millisecond || !strings.HasPrefix(got.note, "median of 3 by CPU (2.80-3.90ms/device)") || !strings.HasSuffix(got.note, " b") {
		t.Errorf("median %v, note %q", got.u.cpu, got.note)
	}
	if one := medianByCPU([]row{r(time.Second, "x")}); one.note != "x" || one.u.cpu != time.Second {
		t.Errorf("one run: %+v", one)
	}
	for _, c := range []struct{ repeat, devices, want int }{{0, 1000, 3}, {0, 10000, 1}, {5, 10000, 5}, {1, 1000, 1}} {
		if got := (scaleConfig{repeat: c.repeat}).auditRepeats(c.devices); got != c.want {
			t.Errorf("repeat %d, %d devices: %d audits, want %d", c.repeat, c.devices, got, c.want)
		}
	}
}
