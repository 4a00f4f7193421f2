package nxos

import (
	"fmt"
	"strconv"
	"strings"
)

// dscpNames are the DSCP keywords NX-OS accepts in `match dscp`.
var dscpNames = map[string]int{
	"default": 0, "cs0": 0, "cs1": 8, "af11": 10, "af12": 12, "af13": 14, "cs2": 16, "af21": 18, "af22": 20,
	"af23": 22, "cs3": 24, "af31": 26, "af32": 28, "af33": 30, "cs4": 32, "af41": 34, "af42": 36, "af43": 38,
	"cs5": 40, "ef": 46, "cs6": 48, "cs7": 56,
}

// parseValues reads value lists such as "26", "24,26", "24-27", "3 4" or "af31,cs6" (names
// only when names is set), each value in 0..max.
func parseValues(s string, max int, names map[string]int) ([]int, error) {
	var out []int
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if v, ok := names[strings.ToLower(tok)]; ok {
			out = append(out, v)
			continue
		}
		lo, hi, isRange := strings.Cut(tok, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("%q is not a value", tok)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("%q is not a range", tok)
			}
		}
		if a < 0 || b > max || a > b {
			return nil, fmt.Errorf("%q is outside 0..%d", tok, max)
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no value in %q", s)
	}
	return out, nil
}
