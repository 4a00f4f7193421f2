// Package numrange renders lists of numbers (priorities, queues, DSCP values) compactly for
// evidence.
package numrange

import (
	"fmt"
	"strconv"
	"strings"
)

// Format renders numbers as "0-25,27,29-30": each run of consecutive numbers as first-last.
// It expects ns sorted; it does not sort (or copy) them itself, so unsorted input is rendered
// in its own order.
func Format(ns []int) string {
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
