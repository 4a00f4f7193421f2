package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// cycleVerdicts fail on each cyclic buffer dependency, located at its first queue. The fix
// named is PFC off on the same-tier links of the cycle, where it has some; else routing.
func cycleVerdicts(r recipe.Recipe, a topology.DeadlockAnalysis, remedy portRemedy) []fabricVerdict {
	var out []fabricVerdict
	for _, c := range a.Cycles {
		loop := append(slices.Clone(c.Cycle), c.Cycle[0])
		var fixes []string
		for _, l := range a.SameTier {
			if onCycle(c, l) {
				fixes = append(fixes, sameTierFix(r, l, remedy))
			}
		}
		fix := strings.Join(fixes, "\n")
		if fix == "" {
			fix = "restore up-down routing for the paths through " + portList(c.Cycle) +
				": lossless traffic must not go down and up again (see the down-up paths reported)"
		}
		first := c.Cycle[0]
		out = append(out, fabricVerdict{device: first.Device, iface: first.Interface, path: "cycle " + portList(loop),
			verdict: verdict{status: Fail,
				actual: fmt.Sprintf("cyclic buffer dependency on priority %d over %d lossless queues: %s",
					r.RoCEPriority, len(c.Queues), portList(loop)),
				message: "each queue of the cycle waits for the next one's buffer under PFC: once they fill, " +
					"the pauses never clear and the priority deadlocks",
				evidence: deadlockEvidence(a, "queues of the cycle's component: "+portList(c.Queues)), remediation: fix}})
	}
	return capped(out, "cycles")
}

// onCycle reports whether a link's queues are on a cycle's component.
func onCycle(c topology.DependencyCycle, l topology.Link) bool {
	return slices.Contains(c.Queues, l.A) || slices.Contains(c.Queues, l.B)
}

// valleyVerdicts fail on each lossless path of the fabric as it is that goes down then up,
// located where it turns back up.
func valleyVerdicts(a topology.DeadlockAnalysis) []fabricVerdict {
	var out []fabricVerdict
	for _, v := range a.Valleys {
		bottom := valleyBottom(a.Tiers, v.Hops)
		name := PathName{Pair: v.From.String() + "->" + v.To.String(), Route: Via(v.Hops)}.String()
		out = append(out, fabricVerdict{device: bottom.Device, iface: bottom.OutPort, path: name,
			verdict: verdict{status: Fail, actual: "lossless path down then up: " + tierPath(a.Tiers, v.Hops),
				message:     "the path comes down to " + bottom.Device + " and goes up again: a bounce, which can close a cyclic buffer dependency",
				evidence:    deadlockEvidence(a, "hops: "+describeHops(v.Hops)),
				remediation: "cable or restore the uplinks that give " + v.From.Device + " and " + v.To.Device + " an up-down path, so lossless traffic never bounces through " + bottom.Device}})
	}
	return capped(out, "down-up paths")
}

// failureVerdicts warn, per inter-switch link whose failure alone opens valleys, with them.
func failureVerdicts(a topology.DeadlockAnalysis) []fabricVerdict {
	var out []fabricVerdict
	for i := 0; i < len(a.FailureValleys); {
		l := *a.FailureValleys[i].Failed
		var paths []string
		for ; i < len(a.FailureValleys) && *a.FailureValleys[i].Failed == l; i++ {
			v := a.FailureValleys[i]
			paths = append(paths, PathName{Pair: v.From.String() + "->" + v.To.String(), Route: Via(v.Hops)}.String())
		}
		link := l.A.String() + " - " + l.B.String()
		out = append(out, fabricVerdict{device: l.A.Device, iface: l.A.Interface, peer: l.B.String(), path: "if " + link + " fails",
			verdict: verdict{status: Warn,
				actual:      fmt.Sprintf("if %s fails, %d lossless path(s) go down then up: %s", link, len(paths), listed(paths)),
				message:     "the fabric is deadlock-free only while this link is up: its failure reroutes lossless traffic through a bounce",
				evidence:    deadlockEvidence(a, "paths recomputed without "+link),
				remediation: "give the leaves behind " + link + " a second up-down path (another uplink or spine), so no single failure makes lossless traffic bounce"}})
	}
	return capped(out, "failures")
}

// sameTierVerdicts warn on each lossless same-tier link that no cycle already names.
func sameTierVerdicts(r recipe.Recipe, a topology.DeadlockAnalysis, remedy portRemedy) []fabricVerdict {
	var out []fabricVerdict
	for _, l := range a.SameTier {
		if slices.ContainsFunc(a.Cycles, func(c topology.DependencyCycle) bool { return onCycle(c, l) }) {
			continue
		}
		link := l.A.String() + " - " + l.B.String()
		out = append(out, fabricVerdict{device: l.A.Device, iface: l.A.Interface, peer: l.B.String(), path: "same-tier link " + link,
			verdict: verdict{status: Warn,
				actual: fmt.Sprintf("PFC on priority %d at both ends of %s, between two tier-%d switches", r.RoCEPriority, link, a.Tiers[l.A.Device]),
				message: "lossless traffic crossing a link between switches of the same tier (leaf-to-leaf, MLAG peer link) " +
					"goes sideways between up and down: with more traffic or a failure it can close a cyclic buffer dependency",
				evidence: deadlockEvidence(a, link), remediation: sameTierFix(r, l, remedy)}})
	}
	return capped(out, "same-tier links")
}

// sameTierFix turns PFC off for the RoCE priority at both ends of a link: each platform's own
// fix where it has one, else a neutral line.
func sameTierFix(r recipe.Recipe, l topology.Link, remedy portRemedy) string {
	var lines []string
	for _, end := range []topology.PortRef{l.A, l.B} {
		fix := remedy("FABRIC-DEADLOCK", end)
		if fix == "" {
			fix = fmt.Sprintf("turn PFC off for priority %d on %s (or remap the traffic that crosses it to a lossy priority)", r.RoCEPriority, end.Interface)
		}
		lines = append(lines, "# "+end.String()+"\n"+fix)
	}
	return strings.Join(lines, "\n")
}

// valleyBottom is the hop where a valley turns back up.
func valleyBottom(tiers map[string]int, hops []topology.Hop) topology.Hop {
	down := false
	for i := 1; i+2 < len(hops); i++ {
		t, next := tiers[hops[i].Device], tiers[hops[i+1].Device]
		if next < t {
			down = true
		} else if next > t && down {
			return hops[i]
		}
	}
	return hops[1]
}

// tierPath spells a path's transit switches with their tiers: "leaf2(1) > spine2(2) > ...".
func tierPath(tiers map[string]int, hops []topology.Hop) string {
	var parts []string
	for _, h := range hops[1 : len(hops)-1] {
		parts = append(parts, fmt.Sprintf("%s(%d)", h.Device, tiers[h.Device]))
	}
	return strings.Join(parts, " > ")
}
