package cumulus

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
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

// naturalLess orders port names the way people count them: swp2 before swp10.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, _ := strconv.Atoi(a[:da])
			nb, _ := strconv.Atoi(b[:db])
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
