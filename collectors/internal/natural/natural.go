// Package natural orders interface names the way people count them: Ethernet2 before
// Ethernet10, swp2 before swp10.
package natural

import (
	"sort"
	"strconv"
)

// Order compares strings byte by byte, except that where both have a run of digits the runs
// compare as numbers. When everything compared is equal the shorter string comes first, so
// "Ethernet01" and "Ethernet1" are neither less than the other.
type Order struct {
	// MaxDigits, when positive, reads a run of digits at most MaxDigits at a time, so a
	// longer run compares as several numbers. Zero reads a whole run as one number; a run
	// beyond int's range reads as the largest int.
	MaxDigits int
}

// Less reports whether a sorts before b.
func (o Order) Less(a, b string) bool {
	for a != "" && b != "" {
		da, db := o.digitRun(a), o.digitRun(b)
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

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (o Order) Compare(a, b string) int {
	switch {
	case o.Less(a, b):
		return -1
	case o.Less(b, a):
		return 1
	}
	return 0
}

// Sort sorts names in place (not stably: names that compare equal may change places).
func (o Order) Sort(names []string) {
	sort.Slice(names, func(i, j int) bool { return o.Less(names[i], names[j]) })
}

// digitRun is the length of the leading run of digits of s, capped at MaxDigits.
func (o Order) digitRun(s string) int {
	n := 0
	for n < len(s) && (o.MaxDigits <= 0 || n < o.MaxDigits) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
