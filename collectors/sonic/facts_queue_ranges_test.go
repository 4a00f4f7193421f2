package sonic

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/numrange"
)

// appendRanges renders what numrange.Format renders.
func TestAppendRangesIsFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ns := make([]int, r.IntN(12))
		for i := range ns {
			ns[i] = r.IntN(20) - 3
		}
		slices.Sort(ns)
		if got, want := string(appendRanges(nil, ns)), numrange.Format(ns); got != want {
			t.Fatalf("%v: %q, want %q", ns, got, want)
		}
	}
}
