package checks

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// fabricChecks judge the fabric as a whole (FABRIC-*).
func fabricChecks() []*Check { return []*Check{fabricDeadlock()} }

// maxListed bounds the results of one kind (cycles, valleys, failures, same-tier links) a
// broken fabric yields; the last one says how many more there are.
const maxListed = 16

func fabricDeadlock() *Check {
	return &Check{
		ID: "FABRIC-DEADLOCK", Title: "lossless routing is deadlock-free (no cyclic buffer dependency, no down-up path)",
		Scope: ScopeFabric, Severity: Critical,
		Rationale: "PFC pauses the RoCE priority hop by hop. When lossless queues wait on each other in a circle " +
			"(a cyclic buffer dependency) the pauses never clear and the priority stops for good: a PFC deadlock, " +
			"which Microsoft met in production (SIGCOMM 2016). Up-down routing in a Clos has no such cycle; one " +
			"forms when lossless traffic goes down and then up again: through links between switches of the same " +
			"tier (leaf-to-leaf, MLAG peer links) or after a link failure reroutes it (HotNets 2016, Tagger). " +
			"Tagger keeps traffic lossless only on its expected up-down routes; SONiC's dual-ToR design remaps " +
			"traffic bounced back to the T1 into another queue for the same reason. roceaudit builds the buffer " +
			"dependency graph from the links and the equal-cost paths between one host port per leaf, and " +
			"recomputes the paths with each inter-switch link failed in turn.",
		Sources: []string{
			"Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM 2016 (PFC deadlock)",
			"Hu et al., Deadlocks in Datacenter Networks: Why Do They Form, and How to Avoid Them, HotNets 2016",
			"Hu et al., Tagger: Practical PFC Deadlock Prevention in Data Center Networks, CoNEXT 2017",
			"sonic-net/SONiC doc/qos/tunnel_dscp_remapping.md (dual-ToR bounced traffic)",
		},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("no cyclic buffer dependency on priority %d; no lossless path down then up, now or after "+
				"any single link failure; no PFC on priority %d between switches of the same tier", r.RoCEPriority, r.RoCEPriority)
		},
		Hint: "keep lossless traffic on up-down paths: turn PFC off for the RoCE priority on links between switches " +
			"of the same tier (or remap the traffic crossing them to a lossy priority), restore the uplinks whose " +
			"absence makes traffic go down and up again, and keep the PFC watchdog on to recover from a deadlock",
		fabric: evalDeadlock,
	}
}

// deadlockInputs is what the analysis of one snapshot could not read.
type deadlockInputs struct {
	unread  []string          // switches whose facts are missing
	unknown map[string]string // port -> why its PFC state is unknown (counted lossless)
}

func evalDeadlock(r recipe.Recipe, f *fabric, remedy portRemedy) []fabricVerdict {
	in := deadlockInputs{unknown: map[string]string{}}
	switches := 0
	for _, d := range f.snap.Devices {
		if d.Role != topology.RoleSwitch {
			continue
		}
		switches++
		if !d.Reachable || d.Switch == nil {
			in.unread = append(in.unread, d.Name)
		}
	}
	if switches == 0 {
		return nil // hosts alone: no fabric to deadlock, as there are no links to check without one
	}
	memo := map[topology.PortRef]bool{}
	lossless := func(p topology.PortRef) bool {
		if v, ok := memo[p]; ok {
			return v
		}
		prios, _, why, _, ok := f.end(p).pfc()
		if !ok {
			in.unknown[p.String()] = why
		}
		// Unknown counts as lossless: a cycle it may close is reported, and the rest is an error.
		memo[p] = !ok || slices.Contains(prios, r.RoCEPriority)
		return memo[p]
	}
	a := topology.AnalyseDeadlock(topology.DeadlockInput{Devices: f.snap.Devices, Links: f.links, Lossless: lossless})
	out := slices.Concat(cycleVerdicts(r, a, remedy), valleyVerdicts(a), failureVerdicts(a), sameTierVerdicts(r, a, remedy))
	if v, ok := incomplete(a, in); ok {
		return append(out, v)
	}
	if len(out) > 0 {
		return out
	}
	return []fabricVerdict{{path: "fabric", verdict: verdict{status: Pass, actual: analysed(r, a)}}}
}

// analysed says what the analysis covered, and where its budget cut it short.
func analysed(r recipe.Recipe, a topology.DeadlockAnalysis) string {
	s := fmt.Sprintf("%d equal-cost paths between %d leaf pairs (one host port per leaf, both directions), "+
		"%d lossless inter-switch queues of priority %d", a.Paths, a.Pairs, a.Queues, r.RoCEPriority)
	if a.Pairs < a.PairsTotal {
		s += fmt.Sprintf(" (work bound reached: %d of %d leaf pairs analysed)", a.Pairs, a.PairsTotal)
	}
	s += fmt.Sprintf("; failure of %d of %d inter-switch links analysed", a.LinksFailed, a.FailableLinks)
	if a.LinksFailed < a.FailableLinks {
		s += " (work bound reached)"
	}
	if a.Truncated {
		s += fmt.Sprintf("; some pairs have more than %d equal-cost paths, the first %d analysed", topology.MaxPaths, topology.MaxPaths)
	}
	if len(a.Endpoints) < 2 {
		s += " (fewer than two leaves have hosts: no path between hosts crosses the fabric)"
	}
	return s + ": no cycle, no down-up path, no lossless same-tier link"
}

// incomplete is the error for what could not be read: without a switch's facts or links the
// graph may miss the dependency that closes a cycle.
func incomplete(a topology.DeadlockAnalysis, in deadlockInputs) (fabricVerdict, bool) {
	var why []string
	if len(in.unread) > 0 {
		why = append(why, "no facts from "+strings.Join(in.unread, ", ")+" (see COLLECT-REACH, COLLECT-FACTS)")
	}
	if len(a.Untiered) > 0 {
		why = append(why, "no link joins "+strings.Join(a.Untiered, ", ")+" to any host")
	}
	if len(in.unknown) > 0 {
		var ps []string
		for _, p := range slices.Sorted(maps.Keys(in.unknown)) {
			ps = append(ps, p+" ("+in.unknown[p]+")")
		}
		why = append(why, "PFC unknown on "+listed(ps)+", counted as lossless")
	}
	if len(why) == 0 {
		return fabricVerdict{}, false
	}
	msg := strings.Join(why, "; ")
	return fabricVerdict{path: "fabric", verdict: verdict{status: Error, actual: "links or PFC state incomplete",
		message:     msg + ". Analysed: " + analysedShort(a),
		evidence:    evidenceOf(msg),
		remediation: "make every switch readable (see its COLLECT-* results) and its links known (LLDP, or links: in the inventory), then re-run"}}, true
}

func analysedShort(a topology.DeadlockAnalysis) string {
	return fmt.Sprintf("%d paths between %d leaf pairs, %d lossless inter-switch queues", a.Paths, a.Pairs, a.Queues)
}

// listed joins at most maxListed items and says how many more there are.
func listed(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListed)
}

// capped keeps the first maxListed verdicts; the last kept one says how many were left out.
func capped(vs []fabricVerdict, what string) []fabricVerdict {
	if len(vs) <= maxListed {
		return vs
	}
	out := vs[:maxListed]
	out[maxListed-1].message += fmt.Sprintf(" (%d more %s not listed)", len(vs)-maxListed, what)
	return out
}

func portList(ps []topology.PortRef) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, " > ")
}

func deadlockEvidence(a topology.DeadlockAnalysis, excerpt string) *topology.Evidence {
	return &topology.Evidence{
		Command: "buffer dependency graph of the links (LLDP and declared) and the equal-cost paths between " +
			"one host port per leaf: " + analysedShort(a),
		Excerpt: excerpt,
	}
}
