package cumulus

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
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

// groupByValue renders a map compactly, keys grouped by value: "0-7->0; 26->3". It runs
// three times a port: the groups are a slice searched in order (a map has a few values), and
// values are written without fmt.
func groupByValue[V comparable](m map[int]V) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	type group struct {
		v    V
		keys []int
	}
	var groups []group
	for _, k := range keys {
		v := m[k]
		i := slices.IndexFunc(groups, func(g group) bool { return g.v == v })
		if i < 0 {
			i = len(groups)
			groups = append(groups, group{v: v})
		}
		groups[i].keys = append(groups[i].keys, k)
	}
	if len(groups) == 0 {
		return "(empty)"
	}
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(numrange.Format(g.keys))
		b.WriteString("->")
		switch v := any(g.v).(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(v)
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// portOrder is the natural order of port names (swp2 before swp10). Digit runs are read nine
// at a time, as this collector always has; no port number is that long.
var portOrder = natural.Order{MaxDigits: 9}
