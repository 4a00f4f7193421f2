package linux

import (
	"strings"
	"testing"
)

// A layout remembered from one output decides nothing for another of as many lines: rows
// that leave it, a shorter output and a renamed row read as the oracle reads them, with
// and without the filter, whichever output came first.
func TestEthtoolLayoutsAreOnlyHints(t *testing.T) {
	st, _ := counterSeeds(t)
	base := st[0]
	for _, s := range st {
		if strings.Count(s, "\n") > strings.Count(base, "\n") {
			base = s
		}
	}
	lines := strings.Split(base, "\n")
	if len(lines) < 10 {
		t.Fatalf("seed of %d lines", len(lines))
	}
	renamed := append([]string(nil), lines...)
	renamed[len(renamed)/2] = "     rx_pause_ctrl_phy: 7" // a kept name where another was
	swapped := append([]string(nil), lines...)
	swapped[3], swapped[4] = swapped[4], swapped[3]
	shorter := append(append([]string(nil), lines[:len(lines)/2]...), make([]string, len(lines)-len(lines)/2)...)
	variants := []string{base, strings.Join(renamed, "\n"), strings.Join(swapped, "\n"), strings.Join(shorter, "\n"), base}
	for _, filter := range []bool{false, true} {
		for round := range 2 {
			for i, v := range variants {
				if strings.Count(v, "\n") != strings.Count(base, "\n") {
					t.Fatalf("variant %d has another line count: not one layout", i)
				}
				checkCountersFact(t, v, "", 0, 0, round == 1, filter)
			}
		}
	}
}
