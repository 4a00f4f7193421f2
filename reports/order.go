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

// statusRank orders statuses worst first, as checks.Statuses lists them.
func statusRank(s checks.Status) int {
	if i := slices.Index(checks.Statuses, s); i >= 0 {
		return i
	}
	return len(checks.Statuses)
}

// compareResults is the machine order (JSON, JUnit, Prometheus): device, interface, check,
// then everything else that can tell two results apart, so the order is total.
func compareResults(a, b checks.Result) int {
	return cmp.Or(
		natCompare(a.Device, b.Device),
		natCompare(a.Interface, b.Interface),
		strings.Compare(a.Check, b.Check),
		strings.Compare(a.Path, b.Path),
		strings.Compare(a.Peer, b.Peer),
		cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
		strings.Compare(a.Message, b.Message),
		strings.Compare(a.Expected, b.Expected),
		strings.Compare(a.Actual, b.Actual),
	)
}

// compareProblems is the people order inside one interface: worst status, then worst
// severity first, then check ID.
func compareProblems(a, b checks.Result) int {
	return cmp.Or(
		cmp.Compare(statusRank(a.Status), statusRank(b.Status)),
		cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
		compareResults(a, b),
	)
}

// sortedResults returns a sorted copy; the Report is never modified.
func sortedResults(rs []checks.Result) []checks.Result {
	out := slices.Clone(rs)
	if out == nil {
		out = []checks.Result{}
	}
	slices.SortStableFunc(out, compareResults)
	return out
}

// sortedOrder is the order sortedResults puts rs in, as indices into rs.
func sortedOrder(rs []checks.Result) []int32 {
	order := make([]int32, len(rs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return compareResults(rs[a], rs[b]) })
	return order
}
