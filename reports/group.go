package reports

import (
	"slices"

	"github.com/roceaudit/roceaudit/checks"
)

// deviceGroup is one device and its results as the people formats show them.
type deviceGroup struct {
	Device DeviceSummary
	// Listed is false for a device that has results but is missing from Report.Devices, and
	// for the fabric group (results that belong to no device: paths, transfers).
	Listed bool
	Fabric bool
	Groups []resultGroup
}

// resultGroup is the results of one interface (or, in the fabric group, one path). Label is
// empty for device-level results, which come first.
type resultGroup struct {
	Label    string
	Problems []checks.Result // every result that is not a pass, worst first
	Passed   []checks.Result // by check ID
}

// passedChecks is the distinct check IDs that passed, in order.
func (g resultGroup) passedChecks() []string {
	var ids []string
	for _, r := range g.Passed {
		if !slices.Contains(ids, r.Check) {
			ids = append(ids, r.Check)
		}
	}
	return ids
}

// groupResults arranges results by device (in Report.Devices order, then devices that only
// appear in results, by name, then the fabric group) and, inside a device, device-level
// results first and interfaces in natural order.
func groupResults(r *Report) []deviceGroup {
	byDevice := map[string][]checks.Result{}
	for _, res := range r.Results {
		byDevice[res.Device] = append(byDevice[res.Device], res)
	}
	var out []deviceGroup
	seen := map[string]bool{}
	for _, d := range r.Devices {
		if seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		out = append(out, deviceGroup{Device: d, Listed: true, Groups: groupByLabel(byDevice[d.Name], false)})
	}
	var extra []string
	for name := range byDevice {
		if name != "" && !seen[name] {
			extra = append(extra, name)
		}
	}
	slices.SortFunc(extra, natCompare)
	for _, name := range extra {
		out = append(out, deviceGroup{Device: DeviceSummary{Name: name}, Groups: groupByLabel(byDevice[name], false)})
	}
	if rs := byDevice[""]; len(rs) > 0 {
		out = append(out, deviceGroup{Device: DeviceSummary{Name: "fabric"}, Fabric: true, Groups: groupByLabel(rs, true)})
	}
	return out
}

// groupByLabel splits one device's results by interface, or by path for the fabric group.
func groupByLabel(rs []checks.Result, byPath bool) []resultGroup {
	label := func(res checks.Result) string {
		if byPath {
			return res.Path
		}
		return res.Interface
	}
	idx := map[string]int{}
	var groups []resultGroup
	for _, res := range rs {
		l := label(res)
		i, ok := idx[l]
		if !ok {
			i = len(groups)
			idx[l] = i
			groups = append(groups, resultGroup{Label: l})
		}
		if res.Status == checks.Pass {
			groups[i].Passed = append(groups[i].Passed, res)
		} else {
			groups[i].Problems = append(groups[i].Problems, res)
		}
	}
	// natCompare puts "" first, so device-level results lead.
	slices.SortFunc(groups, func(a, b resultGroup) int { return natCompare(a.Label, b.Label) })
	for i := range groups {
		slices.SortStableFunc(groups[i].Problems, compareProblems)
		slices.SortStableFunc(groups[i].Passed, compareResults)
	}
	return groups
}

// hasFindings reports whether a group has a result that is neither a pass nor a skip.
func (g resultGroup) hasFindings() bool {
	return slices.ContainsFunc(g.Problems, func(r checks.Result) bool { return r.Status != checks.Skip })
}

// hasFindings reports whether a device needs a section of its own in the short report.
func (g deviceGroup) hasFindings() bool {
	if g.Listed && !g.Fabric && (!g.Device.Reachable || g.Device.Error != "") {
		return true
	}
	return slices.ContainsFunc(g.Groups, resultGroup.hasFindings)
}

// sameFinding splits problems into runs of results that say the very same thing (status,
// message, actual value, evidence error, remediation), keeping the first appearance order.
func sameFinding(rs []checks.Result) [][]checks.Result {
	type key struct{ status, msg, actual, evErr, fix string }
	idx := map[key]int{}
	var out [][]checks.Result
	for _, r := range rs {
		k := key{string(r.Status), r.Message, r.Actual, "", r.Remediation}
		if r.Evidence != nil {
			k.evErr = r.Evidence.Error
		}
		// Only undecided checks collapse: two failures with one message are two facts.
		if r.Status != checks.Error || r.Evidence == nil || k.evErr == "" {
			out = append(out, []checks.Result{r})
			continue
		}
		if i, ok := idx[k]; ok {
			out[i] = append(out[i], r)
			continue
		}
		idx[k] = len(out)
		out = append(out, []checks.Result{r})
	}
	return out
}
