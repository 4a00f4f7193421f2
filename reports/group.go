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
	Label string
	// Problems and Passed point into the report's results: copies were ~200 MB per call at
	// 10,000 devices, and the text, markdown and HTML reports group twice.
	Problems []*checks.Result // every result that is not a pass, worst first
	Passed   []*checks.Result // by check ID
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
// results first and interfaces in natural order. Results are gathered and sorted by index
// and copied once, into their group: a million of them at 10,000 devices, copied per device
// and again per group and swapped by stable sorts, were most of the text report's CPU.
func groupResults(r *Report) []deviceGroup { return groupResultsOf(r, nil) }

// findingGroups is groupResults of the devices that may have a section in the short report
// (deviceGroup.hasFindings): those with a result that is neither a pass nor a skip, or
// listed as unread. Grouping every device was most of that report at 10,000 devices, nearly
// none of which has a finding; callers still ask hasFindings.
func findingGroups(r *Report) []deviceGroup {
	with := map[string]bool{}
	for _, d := range r.Devices {
		if !d.Reachable || d.Error != "" {
			with[d.Name] = true
		}
	}
	for _, res := range r.Results {
		if res.Status != checks.Pass && res.Status != checks.Skip {
			with[res.Device] = true
		}
	}
	return groupResultsOf(r, with)
}

// groupResultsOf is groupResults of the devices only names (all of them when only is nil;
// "" names the fabric group).
func groupResultsOf(r *Report, only map[string]bool) []deviceGroup {
	byDevice := map[string][]int32{}
	last, lastDevice, keep := []int32(nil), "", true
	for i, res := range r.Results {
		if i == 0 || res.Device != lastDevice {
			if i > 0 && keep {
				byDevice[lastDevice] = last
			}
			last, lastDevice, keep = byDevice[res.Device], res.Device, only == nil || only[res.Device]
		}
		if keep {
			last = append(last, int32(i))
		}
	}
	if len(r.Results) > 0 && keep {
		byDevice[lastDevice] = last
	}
	var out []deviceGroup
	seen := map[string]bool{}
	for _, d := range r.Devices {
		if seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		if only == nil || only[d.Name] {
			out = append(out, deviceGroup{Device: d, Listed: true, Groups: groupByLabel(r.Results, byDevice[d.Name], false)})
		}
	}
	var extra []string
	for name := range byDevice {
		if name != "" && !seen[name] {
			extra = append(extra, name)
		}
	}
	slices.SortFunc(extra, natCompare)
	for _, name := range extra {
		out = append(out, deviceGroup{Device: DeviceSummary{Name: name}, Groups: groupByLabel(r.Results, byDevice[name], false)})
	}
	if idx := byDevice[""]; len(idx) > 0 {
		out = append(out, deviceGroup{Device: DeviceSummary{Name: "fabric"}, Fabric: true, Groups: groupByLabel(r.Results, idx, true)})
	}
	return out
}

// groupByLabel splits one device's results (all[i] for i in idx) by interface, or by path
// for the fabric group.
func groupByLabel(all []checks.Result, idx []int32, byPath bool) []resultGroup {
	label := func(res *checks.Result) string {
		if byPath {
			return res.Path
		}
		return res.Interface
	}
	type members struct {
		label            string
		problems, passed []int32
	}
	at := map[string]int{}
	var ms []members
	for _, i := range idx {
		res := &all[i]
		l := label(res)
		g, ok := at[l]
		if !ok {
			g = len(ms)
			at[l] = g
			ms = append(ms, members{label: l})
		}
		if res.Status == checks.Pass {
			ms[g].passed = append(ms[g].passed, i)
		} else {
			ms[g].problems = append(ms[g].problems, i)
		}
	}
	// natCompare puts "" first, so device-level results lead.
	slices.SortFunc(ms, func(a, b members) int { return natCompare(a.label, b.label) })
	gather := func(order []int32, cmp func(a, b *checks.Result) int) []*checks.Result {
		if len(order) == 0 {
			return nil
		}
		slices.SortStableFunc(order, func(a, b int32) int { return cmp(&all[a], &all[b]) })
		out := make([]*checks.Result, len(order))
		for k, i := range order {
			out[k] = &all[i]
		}
		return out
	}
	groups := make([]resultGroup, len(ms))
	for g, m := range ms {
		groups[g] = resultGroup{Label: m.label, Problems: gather(m.problems, compareProblemsOf), Passed: gather(m.passed, compareResultsOf)}
	}
	return groups
}

// hasFindings reports whether a group has a result that is neither a pass nor a skip.
func (g resultGroup) hasFindings() bool {
	return slices.ContainsFunc(g.Problems, func(r *checks.Result) bool { return r.Status != checks.Skip })
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
func sameFinding(rs []*checks.Result) [][]*checks.Result {
	type key struct{ status, msg, actual, evErr, fix string }
	idx := map[key]int{}
	var out [][]*checks.Result
	for _, r := range rs {
		k := key{string(r.Status), r.Message, r.Actual, "", r.Remediation}
		if r.Evidence != nil {
			k.evErr = r.Evidence.Error
		}
		// Only undecided checks collapse: two failures with one message are two facts.
		if r.Status != checks.Error || r.Evidence == nil || k.evErr == "" {
			out = append(out, []*checks.Result{r})
			continue
		}
		if i, ok := idx[k]; ok {
			out[i] = append(out[i], r)
			continue
		}
		idx[k] = len(out)
		out = append(out, []*checks.Result{r})
	}
	return out
}
