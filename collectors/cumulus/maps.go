package cumulus

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/natural"
	"github.com/roceaudit/roceaudit/collectors/internal/numrange"
)

// overlay returns base with top's entries on top (a port's rows over the switch-wide map).
func overlay[V any](base, top map[int]V) map[int]V {
	out := maps.Clone(base)
	if out == nil {
		out = map[int]V{}
	}
	maps.Copy(out, top)
	return out
}

// groupByValue renders a map compactly, keys grouped by value: "0-7->0; 26->3".
func groupByValue[V comparable](m map[int]V) string {
	byVal := map[V][]int{}
	var order []V
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if _, ok := byVal[v]; !ok {
			order = append(order, v)
		}
		byVal[v] = append(byVal[v], k)
	}
	var parts []string
	for _, v := range order {
		parts = append(parts, fmt.Sprintf("%s->%v", numrange.Format(byVal[v]), v))
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, "; ")
}

// portOrder is the natural order of port names (swp2 before swp10). Digit runs are read nine
// at a time, as this collector always has; no port number is that long.
var portOrder = natural.Order{MaxDigits: 9}
