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

// So is a remembered hw counter sequence: renamed, swapped and other counters of as many
// read as the oracle reads them.
func TestHwSequencesAreOnlyHints(t *testing.T) {
	st, hw := counterSeeds(t)
	base := hw[0]
	for _, s := range hw {
		if strings.Count(s, "\n") > strings.Count(base, "\n") {
			base = s
		}
	}
	lines := strings.Split(strings.TrimRight(base, "\n"), "\n")
	if len(lines) < 6 {
		t.Fatalf("seed of %d lines", len(lines))
	}
	dir := lines[0][:strings.LastIndexByte(lines[0][:strings.IndexByte(lines[0], ':')], '/')+1]
	renamed := append([]string(nil), lines...)
	renamed[len(renamed)/2] = dir + "out_of_sequence:5"
	swapped := append([]string(nil), lines...)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	other := append([]string(nil), lines...)
	other[0] = dir + "np_cnp_sent:9" // a name the audit keeps
	variants := []string{base, strings.Join(renamed, "\n"), strings.Join(swapped, "\n"), strings.Join(other, "\n"), base}
	for _, filter := range []bool{false, true} {
		for round := range 2 {
			for _, v := range variants {
				checkCountersFact(t, st[round], v, 0, 0, true, filter)
			}
		}
	}
}
