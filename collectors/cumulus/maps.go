package cumulus

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/natural"
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
		parts = append(parts, fmt.Sprintf("%s->%v", ranges(byVal[v]), v))
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, "; ")
}

// ranges renders sorted numbers as "0-25,27,29-30".
func ranges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// portOrder is the natural order of port names (swp2 before swp10). Digit runs are read nine
// at a time, as this collector always has; no port number is that long.
var portOrder = natural.Order{MaxDigits: 9}
