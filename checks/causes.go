package checks

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Cause is one fact on one port (or device, or transfer) that explains a set of results:
// leaf1 Ethernet12's PFC set explains its SW-PFC, the LINK-PFC of its link, the XFER-RETRANS
// that names it and the XFER-BW of the transfers through it. Reports open with causes so a
// reader fixes three things instead of reading forty failures.
type Cause struct {
	Device    string   `json:"device,omitempty"`
	Interface string   `json:"interface,omitempty"`
	Path      string   `json:"path,omitempty"` // a transfer's cause that no port explains
	Check     string   `json:"check"`          // the result the cause was found by (SW-PFC)
	Fact      string   `json:"fact"`           // what is wrong: "PFC", "MTU", "reachability"...
	Problem   string   `json:"problem"`        // how it is wrong, the root result's actual value
	Expected  string   `json:"expected,omitempty"`
	Severity  Severity `json:"severity"`
	// Explains is every result the cause accounts for, grouped by check, biggest group first.
	Explains []Explained `json:"explains"`
}

// Explained is one check's results that a cause accounts for.
type Explained struct {
	Check   string      `json:"check"`
	Count   int         `json:"count"`
	Results []ResultRef `json:"results"`
}

// ResultRef names one result without repeating it.
type ResultRef struct {
	Check     string `json:"check"`
	Status    Status `json:"status"`
	Device    string `json:"device,omitempty"`
	Interface string `json:"interface,omitempty"`
	Path      string `json:"path,omitempty"`
}

// Total is how many results the cause explains.
func (c Cause) Total() int {
	n := 0
	for _, e := range c.Explains {
		n += e.Count
	}
	return n
}

// Where is "leaf1 Ethernet12", "gpu09" or the transfer's path.
func (c Cause) Where() string {
	if c.Device == "" {
		return c.Path
	}
	return strings.TrimSpace(c.Device + " " + c.Interface)
}

// Headline is the one line reports print: "leaf1 Ethernet12 PFC: PFC on no priority ->
// XFER-BW on 2 paths, XFER-RETRANS, SW-PFC, LINK-PFC".
func (c Cause) Headline() string {
	var parts []string
	for _, e := range c.Explains {
		switch {
		case e.Count > 1 && strings.HasPrefix(e.Check, "XFER-"), e.Count > 1 && strings.HasPrefix(e.Check, "PATH-"):
			parts = append(parts, fmt.Sprintf("%s on %d paths", e.Check, e.Count))
		case e.Count > 1:
			parts = append(parts, fmt.Sprintf("%s x%d", e.Check, e.Count))
		default:
			parts = append(parts, e.Check)
		}
	}
	// A problem quoted from a CLI row keeps its column padding; a headline is one sentence.
	problem := strings.Join(strings.Fields(c.Problem), " ")
	return fmt.Sprintf("%s %s: %s -> %s", c.Where(), c.Fact, problem, strings.Join(parts, ", "))
}

// PathPorts is every port on the equal-cost paths of one endpoint pair, keyed as transfer
// results name their path ("gpu01:ens1f0np0->gpu04:ens1f0np0").
type PathPorts struct {
	Path  string
	Ports [][2]string // device, interface
}

// factOf names what a check looks at, so a switch port's PFC and the PFC of its link are one
// fact. Checks of one family (SW-PFC, HOST-PFC, LINK-PFC) share a fact.
func factOf(check string) string {
	_, rest, ok := strings.Cut(check, "-")
	if !ok {
		return strings.ToLower(check)
	}
	switch rest {
	case "REACH":
		return "reachability"
	case "FACTS":
		return "collection"
	case "DCBX-MIX":
		return "DCBX"
	case "DSCP-MAP":
		return "DSCP map"
	case "PFC-WATCHDOG":
		return "PFC watchdog"
	case "ROCE-MTU":
		return "RoCE MTU"
	case "CNP-QUEUE":
		return "CNP"
	case "GID-V2", "GID-INDEX":
		return "GID"
	case "RDMA-PORT":
		return "RDMA port"
	case "DEADLOCK":
		return "deadlock risk"
	case "APP-TC":
		return "application traffic class"
	case "PFC-STORM":
		return "PFC storm"
	case "ECN-PFC-ORDER":
		return "ECN before PFC"
	case "TRUST", "PAUSE", "BUFFER", "HEADROOM":
		return strings.ToLower(rest)
	case "RUN", "BW", "RETRANS":
		return "transfer"
	case "COVERAGE":
		return "ECMP coverage"
	case "RESOLVED":
		return "path"
	case "TOS":
		return "ToS"
	}
	return rest
}

// counts says whether a result needs explaining: failures, errors and warnings do; passes,
// skips (which point at the check they follow from) and waivers do not.
func counts(r Result) bool { return r.Status == Fail || r.Status == Error || r.Status == Warn }

// portOwned reports whether a check judges one port's own configuration (a possible root).
func portOwned(check string) bool {
	return strings.HasPrefix(check, "HOST-") || strings.HasPrefix(check, "SW-")
}

type causeBuilder struct {
	causes []*Cause
	byPort map[[2]string][]int // device, interface -> causes rooted there
	byDev  map[string]int      // device-level causes
	byPath map[string]int      // resolved endpoint pair -> cause that took its first result
	ends   endpoints
}

func (b *causeBuilder) add(c *Cause, r Result) {
	c.Check = r.Check
	c.explain(r)
	b.causes = append(b.causes, c)
}

func (c *Cause) explain(r Result) {
	ref := ResultRef{Check: r.Check, Status: r.Status, Device: r.Device, Interface: r.Interface, Path: r.Path}
	for i := range c.Explains {
		if c.Explains[i].Check == r.Check {
			c.Explains[i].Results = append(c.Explains[i].Results, ref)
			c.Explains[i].Count++
			return
		}
	}
	c.Explains = append(c.Explains, Explained{Check: r.Check, Count: 1, Results: []ResultRef{ref}})
	if r.Severity.Rank() > c.Severity.Rank() {
		c.Severity = r.Severity
	}
}

// onPort is the cause on port p with fact, else any cause on p (a lossy hop follows from
// whatever is wrong there), else -1.
func (b *causeBuilder) onPort(p [2]string, fact string, anyFact bool) int {
	ids := b.byPort[p]
	for _, i := range ids {
		if b.causes[i].Fact == fact {
			return i
		}
	}
	if anyFact && len(ids) > 0 {
		return ids[0]
	}
	return -1
}

// FindCauses groups the results that need explaining by the fact that explains them and
// returns the causes biggest first. It is a pure function of its input:
//   - a failed or warned HOST-/SW- check roots a cause on its port and fact; an error on a
//     port that also fails joins the worst failure there (a port that cannot be read because
//     of its fault is the same fault);
//   - a device that could not be reached or read explains every other result on it;
//   - LINK- and PATH- results join the cause with the same fact on either end or hop;
//   - XFER-RETRANS joins any cause on the port it names; the other results of that transfer
//     (XFER-BW, XFER-RUN) follow it, or, with no counter named, a failing port on its paths;
//     XFER-COVERAGE (which members a hash chose) is a cause of its own;
//   - what nothing explains is a cause of its own.
func FindCauses(results []Result, paths []PathPorts) []Cause {
	// Only what counts (fails, errors, warnings) roots or joins a cause, so only that is
	// sorted: a copy and stable sort of all a 10,000-device audit's million results was
	// 1.2 s of its text report, nearly all of them passes.
	var rs []Result
	for _, r := range results {
		if counts(r) {
			rs = append(rs, r)
		}
	}
	slices.SortStableFunc(rs, func(a, b Result) int {
		return cmp.Or(cmp.Compare(statusOrder(a.Status), statusOrder(b.Status)), cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
			strings.Compare(a.Device, b.Device), strings.Compare(a.Interface, b.Interface), strings.Compare(a.Check, b.Check), strings.Compare(a.Path, b.Path))
	})
	b := &causeBuilder{byPort: map[[2]string][]int{}, byDev: map[string]int{}, byPath: map[string]int{}, ends: auditedNetdevs(results)}
	var rest []Result
	// Device-level roots first: an unreachable device explains everything on it.
	for _, r := range rs {
		if counts(r) && r.Interface == "" && r.Path == "" && r.Device != "" && strings.HasPrefix(r.Check, "COLLECT-") {
			if _, ok := b.byDev[r.Device]; ok {
				b.causes[b.byDev[r.Device]].explain(r)
				continue
			}
			b.byDev[r.Device] = len(b.causes)
			b.add(&Cause{Device: r.Device, Fact: factOf(r.Check), Problem: firstSet(r.Actual, r.Message), Expected: r.Expected}, r)
		}
	}
	// Port roots: failures (sorted first) open causes; errors and warnings join one.
	for _, r := range rs {
		if !counts(r) || (r.Interface == "" && r.Path == "" && strings.HasPrefix(r.Check, "COLLECT-")) {
			continue
		}
		if i, ok := b.byDev[r.Device]; ok && r.Device != "" {
			b.causes[i].explain(r)
			continue
		}
		if !portOwned(r.Check) || r.Interface == "" || r.Path != "" {
			rest = append(rest, r)
			continue
		}
		p := [2]string{r.Device, r.Interface}
		if i := b.onPort(p, factOf(r.Check), r.Status == Error); i >= 0 {
			b.causes[i].explain(r)
			continue
		}
		b.byPort[p] = append(b.byPort[p], len(b.causes))
		b.add(&Cause{Device: r.Device, Interface: r.Interface, Fact: factOf(r.Check), Problem: firstSet(r.Actual, r.Message), Expected: r.Expected}, r)
	}
	// Links, paths and lossy hops join a port's cause.
	var xfers []Result
	for _, r := range rest {
		fact := factOf(r.Check)
		switch {
		case strings.HasPrefix(r.Check, "LINK-"), strings.HasPrefix(r.Check, "PATH-") && r.Interface != "":
			i := b.onPort([2]string{r.Device, r.Interface}, fact, false)
			if peer := splitPeer(r.Peer); i < 0 && peer[0] != "" {
				i = b.onPort(peer, fact, false)
			}
			if i >= 0 {
				b.causes[i].explain(r)
				continue
			}
			b.ownCause(r, fact)
		case r.Check == "XFER-RETRANS" && r.Interface != "":
			if i := b.onPort([2]string{r.Device, r.Interface}, fact, true); i >= 0 {
				b.causes[i].explain(r)
				b.byPath[b.ends.pair(r.Path)] = i
				continue
			}
			xfers = append(xfers, r)
		default:
			xfers = append(xfers, r)
		}
	}
	// The rest of each transfer follows its lossy hop, else a port cause on its paths, else
	// the transfer's first problem (XFER-RUN sorts before XFER-BW only by status and severity).
	onPaths := map[string][][2]string{}
	for _, p := range paths {
		k := b.ends.pair(p.Path)
		onPaths[k] = append(onPaths[k], p.Ports...)
	}
	for _, r := range xfers {
		key := b.ends.pair(r.Path)
		if r.Check == "XFER-COVERAGE" {
			// The members a hash never chose carried nothing a fault on their ports could
			// spoil: coverage is a cause of its own, whatever else is wrong on its paths.
			b.ownCause(r, factOf(r.Check))
			continue
		}
		if i, ok := b.pathCause(key); ok && strings.HasPrefix(r.Check, "XFER-") {
			b.causes[i].explain(r)
			continue
		}
		if strings.HasPrefix(r.Check, "XFER-") {
			// Low bandwidth or lost packets follow from a fault on the path; a transfer that
			// could not start (an error) is a problem of its own.
			if i := b.portOnPath(onPaths[key]); i >= 0 && r.Status == Fail {
				b.causes[i].explain(r)
				b.byPath[key] = i
				continue
			}
			b.byPath[key] = len(b.causes)
		}
		b.ownCause(r, factOf(r.Check))
	}
	out := make([]Cause, len(b.causes))
	for i, c := range b.causes {
		slices.SortStableFunc(c.Explains, func(x, y Explained) int { return cmp.Compare(y.Count, x.Count) })
		out[i] = *c
	}
	slices.SortStableFunc(out, func(x, y Cause) int {
		return cmp.Or(cmp.Compare(y.Total(), x.Total()), cmp.Compare(y.Severity.Rank(), x.Severity.Rank()))
	})
	return out
}

// portOnPath is the worst cause rooted on one of ports (causes are created worst first).
func (b *causeBuilder) portOnPath(ports [][2]string) int {
	best := -1
	for _, p := range ports {
		for _, i := range b.byPort[p] {
			if best < 0 || i < best {
				best = i
			}
		}
	}
	return best
}

// ownCause makes a result nothing else explains a cause of its own.
func (b *causeBuilder) ownCause(r Result, fact string) {
	c := &Cause{Device: r.Device, Interface: r.Interface, Fact: fact, Problem: firstSet(r.Actual, r.Message), Expected: r.Expected}
	if r.Interface == "" || strings.HasPrefix(r.Check, "XFER-") || r.Check == "PATH-RESOLVED" {
		c.Device, c.Interface, c.Path = "", "", EndpointPair(r.Path)
	}
	if c.Device == "" && c.Path == "" {
		c.Device = r.Device
	}
	if r.Check == "PATH-RESOLVED" {
		// A transfer between endpoints that no path joins follows from the missing path.
		b.byPath[b.ends.pair(r.Path)] = len(b.causes)
	}
	b.add(c, r)
}

// splitPeer reads "leaf1:Ethernet8"; port names may contain ":" only after the device.
func splitPeer(s string) [2]string {
	d, i, ok := strings.Cut(s, ":")
	if !ok {
		return [2]string{}
	}
	return [2]string{d, i}
}

func statusOrder(s Status) int {
	if i := slices.Index(Statuses, s); i >= 0 {
		return i
	}
	return len(Statuses)
}

func firstSet(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// ExplainedCount counts the results the causes account for.
func ExplainedCount(cs []Cause) int {
	n := 0
	for _, c := range cs {
		n += c.Total()
	}
	return n
}
