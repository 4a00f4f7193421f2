package reports

import (
	"cmp"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// natCompare orders names the way people number ports: Ethernet8 before Ethernet12,
// swp2 before swp10, Ethernet1/2 before Ethernet1/10.
func natCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	// Equal under the natural order ("eth01" vs "eth1"): fall back to bytes so the order is total.
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// natCompareUnlessSame is natCompare, which is 0 only for equal strings, without walking two
// equal ones (the results of one port, sorted, share their device and interface).
func natCompareUnlessSame(a, b string) int {
	if a == b {
		return 0
	}
	return natCompare(a, b)
}

// statusRank orders statuses worst first, as checks.Statuses lists them.
func statusRank(s checks.Status) int {
	if i := slices.Index(checks.Statuses, s); i >= 0 {
		return i
	}
	return len(checks.Statuses)
}

// compareResults is the machine order (JSON, JUnit, Prometheus): device, interface, check,
// then everything else that can tell two results apart, so the order is total.
func compareResults(a, b checks.Result) int { return compareResultsOf(&a, &b) }

// compareResultsOf is compareResults of two results in place (a Result is ~180 bytes, and a
// sort of a million compares each ~20 times).
func compareResultsOf(a, b *checks.Result) int {
	return cmp.Or(
		natCompareUnlessSame(a.Device, b.Device),
		natCompareUnlessSame(a.Interface, b.Interface),
		strings.Compare(a.Check, b.Check),
		strings.Compare(a.Path, b.Path),
		strings.Compare(a.Peer, b.Peer),
		cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
		strings.Compare(a.Message, b.Message),
		strings.Compare(a.Expected, b.Expected),
		strings.Compare(a.Actual, b.Actual),
	)
}

// compareProblemsOf is the people order inside one interface: worst status, then worst
// severity first, then check ID.
func compareProblemsOf(a, b *checks.Result) int {
	return cmp.Or(
		cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
		cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
		compareResultsOf(a, b),
	)
}

// sortedResults returns a sorted copy; the Report is never modified. The order is sorted as
// indices, then the results copied once in it: swapping the results themselves in a stable
// sort (rotations of ~180-byte values) was seconds at a million.
func sortedResults(rs []checks.Result) []checks.Result {
	out := make([]checks.Result, len(rs))
	for k, i := range sortedOrder(rs) {
		out[k] = rs[i]
	}
	return out
}

// sortedOrder is the order sortedResults puts rs in, as indices into rs.
func sortedOrder(rs []checks.Result) []int32 {
	order := make([]int32, len(rs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return compareResultsOf(&rs[a], &rs[b]) })
	return order
}
