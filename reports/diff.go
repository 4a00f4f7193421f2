package reports

import (
	"sort"

	"github.com/roceaudit/roceaudit/checks"
)

// Change is one result that differs between two reports.
type Change struct {
	Key    string        `json:"key"` // CHECK device:interface [path]
	Before checks.Status `json:"before,omitempty"`
	After  checks.Status `json:"after,omitempty"`
	// Kind is "new", "gone", "worse", "better" or "changed" (same status, other actual value;
	// or between fail and error, which is neither better nor worse).
	Kind   string `json:"kind"`
	Actual string `json:"actual,omitempty"` // the newer actual value
	Was    string `json:"was,omitempty"`    // the older actual value
}

// FactChange is one collected setting of one port that differs between two runs, e.g.
// leaf2 Ethernet8 MTU 9216 -> 1500, whatever the verdicts say.
type FactChange struct {
	Device    string `json:"device"`
	Interface string `json:"interface"`
	Fact      string `json:"fact"`
	Before    string `json:"before"`
	After     string `json:"after"`
}

// String is "leaf2 Ethernet8 MTU 9216 -> 1500".
func (f FactChange) String() string {
	return f.Device + " " + f.Interface + " " + f.Fact + " " + f.Before + " -> " + f.After
}

// Drift is what changed between two reports.
type Drift struct {
	Changes []Change     `json:"changes"`
	Facts   []FactChange `json:"facts"` // settings that changed on ports both runs read
	Worse   int          `json:"worse"` // new or worsened fail/error results
}

// badness orders statuses from good to bad for drift.
func badness(s checks.Status) int {
	switch s {
	case checks.Pass, checks.Skip, checks.Waived:
		return 0
	case checks.Warn:
		return 1
	case checks.Error:
		return 2
	case checks.Fail:
		return 3
	}
	return 0
}

// failToError reports whether a result went between fail and error, either way.
func failToError(before, after checks.Status) bool {
	return (before == checks.Fail && after == checks.Error) || (before == checks.Error && after == checks.Fail)
}

// resultKey identifies a result across runs. Path results are keyed by their path: a
// transfer's XFER-RETRANS moves to whichever hop lost packets.
func resultKey(r checks.Result) string {
	switch {
	case r.Path != "":
		return r.Check + " " + r.Path
	case r.Interface == "":
		return r.Check + " " + r.Device
	}
	return r.Check + " " + r.Device + ":" + r.Interface
}

// Diff compares two reports result by result. Worse counts the new or worsened errors, and
// failures whose severity reaches failOn.
func Diff(before, after *Report, failOn checks.Severity) Drift {
	old := map[string]checks.Result{}
	for _, r := range before.Results {
		old[resultKey(r)] = r
	}
	seen := map[string]bool{}
	d := Drift{Changes: []Change{}}
	for _, r := range after.Results {
		k := resultKey(r)
		seen[k] = true
		o, ok := old[k]
		c := Change{Key: k, After: r.Status, Actual: r.Actual}
		switch {
		case !ok:
			c.Kind = "new"
		case failToError(o.Status, r.Status):
			// A failure that cannot be decided now, or the other way: neither better nor
			// worse. From a pass (or warning) an error is worse: the check no longer holds.
			c.Kind, c.Before, c.Was = "changed", o.Status, o.Actual
		case badness(r.Status) > badness(o.Status):
			c.Kind, c.Before, c.Was = "worse", o.Status, o.Actual
		case badness(r.Status) < badness(o.Status):
			c.Kind, c.Before, c.Was = "better", o.Status, o.Actual
		case o.Actual != r.Actual || o.Status != r.Status:
			c.Kind, c.Before, c.Was = "changed", o.Status, o.Actual
		default:
			continue
		}
		if c.Kind == "new" && badness(r.Status) == 0 {
			continue // a new passing check is not drift worth reading
		}
		counts := r.Status == checks.Error || (r.Status == checks.Fail && r.Severity.Rank() >= failOn.Rank())
		if counts && (c.Kind == "new" || c.Kind == "worse" || (c.Kind == "changed" && r.Status == checks.Error)) {
			d.Worse++
		}
		d.Changes = append(d.Changes, c)
	}
	for _, r := range before.Results {
		if k := resultKey(r); !seen[k] {
			d.Changes = append(d.Changes, Change{Key: k, Before: r.Status, Kind: "gone", Was: r.Actual})
		}
	}
	sort.SliceStable(d.Changes, func(i, j int) bool { return d.Changes[i].Key < d.Changes[j].Key })
	d.Facts = diffFacts(before.Ports, after.Ports)
	return d
}

// diffFacts compares the settings of the ports both reports read; a value neither could
// read ("?" on both sides) is no change, one that became unreadable is.
func diffFacts(before, after []PortFacts) []FactChange {
	old := factIndex(before)
	out := []FactChange{}
	for _, p := range after {
		o, ok := old[portKey{p.Device, p.Interface}]
		if !ok {
			continue
		}
		was, now := o.values(), p.values()
		for i, name := range factNames {
			if was[i] != now[i] {
				out = append(out, FactChange{Device: p.Device, Interface: p.Interface, Fact: name, Before: was[i], After: now[i]})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := natCompare(out[i].Device, out[j].Device); c != 0 {
			return c < 0
		}
		return natCompare(out[i].Interface, out[j].Interface) < 0
	})
	return out
}
