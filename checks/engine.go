package checks

import (
	"sort"
	"strings"
	"sync"

	"github.com/roceaudit/roceaudit/internal/parallel"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Options narrow which checks run (--only, --skip). IDs are validated by the caller.
type Options struct {
	Only []string
	Skip []string
	// Remedy writes the remediation of a result in the named platform's own language, from
	// the port's facts and the effective recipe (a platform registry's Remedy); every result
	// that wants a fix (host, switch, link, path and transfer alike) asks it.
	Remedy func(platform string, in remedy.Input) string
	// Paths are endpoint pairs for PATH-* checks; with Restrict, port and link checks only
	// run on the hops of these paths (audit --path, or the inventory's paths:).
	Paths    []PathSpec
	Restrict bool
}

func (o Options) wants(id string) bool {
	has := func(list []string) bool {
		for _, x := range list {
			if strings.EqualFold(x, id) {
				return true
			}
		}
		return false
	}
	if len(o.Only) > 0 && !has(o.Only) {
		return false
	}
	return !has(o.Skip)
}

// Run evaluates the catalog over a snapshot: device checks on every device, host-port and
// switch-port checks on every audited port, link checks on every link, and path checks on
// every endpoint pair of opts.Paths. With opts.Restrict, port and link checks only look at the
// hops of those paths. It reads nothing but the snapshot.
func Run(snap *topology.Snapshot, opts Options) []Result {
	cat := Catalog()
	for _, c := range cat { // one text per check and run, not one per result
		text := c.Expected(snap.Recipe)
		c.expected = &text
	}
	f := newFabric(snap)
	paths := resolvePaths(snap, f.links, opts.Paths)
	var sc *scope
	if opts.Restrict {
		sc = pathScope(paths, func(name string) bool { return f.devices[name] != nil })
	}
	linked := topology.LinkedPorts(f.links)
	// The fabric-wide analysis (most of a large fabric's check time) runs beside the devices,
	// which are judged on every core; results keep the order of a serial run.
	var fabricOut []Result
	var wg sync.WaitGroup
	if sc == nil { // a fabric-wide verdict has no place in an audit narrowed to some paths
		wg.Add(1)
		go func() {
			defer wg.Done()
			fabricOut = fabricResults(snap.Recipe, cat, f, opts)
		}()
	}
	kinds := countKinds(cat)
	bound := func(d *topology.Device) int { // results deviceResults may append, at most
		n := kinds.device
		if d.Reachable && d.Host != nil {
			n += kinds.hostPort * len(d.Host.Ports)
		}
		if d.Reachable && d.Switch != nil {
			n += kinds.switchPort * len(linked[d.Name])
		}
		return n
	}
	// Room after the devices' results for the links' and the fabric's, so they are appended
	// in place rather than the whole list copied.
	links, declared := linksInScope(f, sc)
	linkResultsMax := kinds.link*links + kinds.declared*declared
	room := linkResultsMax + 64
	// The links are judged beside the devices too (they only read the fabric): serial after
	// them, they were the checks' tail on an otherwise idle core.
	var linkOut []Result
	wg.Add(1)
	go func() {
		defer wg.Done()
		linkOut = linkResults(snap.Recipe, cat, f, sc, opts, linkResultsMax)
		resultTexts{}.shareTexts(linkOut)
	}()
	perDevice := eachDevice(snap.Devices, bound, room, func(d *topology.Device, out []Result) []Result {
		return deviceResults(snap.Recipe, cat, f, sc, linked, d, opts, out)
	})
	wg.Wait()
	var tail []Result
	for _, rp := range paths {
		for _, c := range cat {
			if c.path == nil || !opts.wants(c.ID) {
				continue
			}
			for _, pv := range c.path(snap.Recipe, f, rp) {
				e := f.end(topology.PortRef{Device: pv.device, Interface: pv.iface})
				v := opts.hopFix(c, pv.verdict, e, e.input(c, snap.Recipe))
				res := c.result(snap.Recipe, v, pv.device, pv.iface)
				res.Path = pv.path
				tail = append(tail, res)
			}
		}
	}
	for _, x := range snap.Transfers {
		for _, c := range cat {
			if c.transfer == nil || !opts.wants(c.ID) {
				continue
			}
			v := c.transfer(snap.Recipe, x)
			if v.status == "" { // the check judges another transfer of the pair
				continue
			}
			e := f.located(v, x.From.Device, x.From.Interface)
			in := e.input(c, snap.Recipe)
			in.Transfer = &x
			v = opts.hopFix(c, v, e, in)
			res := c.result(snap.Recipe, v, x.From.Device, x.From.Interface)
			res.Path = xferPath(x)
			tail = append(tail, res)
		}
	}

	return append(append(append(perDevice, linkOut...), fabricOut...), tail...)
}

// kinds counts a catalog's checks of each per-device kind.
type kinds struct{ device, hostPort, switchPort, link, declared int }

func countKinds(cat []*Check) kinds {
	var k kinds
	for _, c := range cat {
		if c.device != nil {
			k.device++
		}
		if c.hostPort != nil {
			k.hostPort++
		}
		if c.switchPort != nil {
			k.switchPort++
		}
		if c.link != nil {
			k.link++
		}
		if c.declared != nil {
			k.declared++
		}
	}
	return k
}

// deviceChunk is how many devices one worker judges at a time.
const deviceChunk = 32

// eachDevice calls judge for every device on every core and returns the results in device
// order. Each chunk of devices writes into its own window of one slice, sized by bound (at
// least what judge appends for a device), so a million results are neither regrown nor
// copied from one slice to another; windows not filled are closed up at the end. The slice
// has room for that many more results.
func eachDevice(devices []*topology.Device, bound func(*topology.Device) int, room int, judge func(d *topology.Device, out []Result) []Result) []Result {
	chunks := (len(devices) + deviceChunk - 1) / deviceChunk
	start := make([]int, chunks+1)
	for i := range chunks {
		n := 0
		for _, d := range devices[i*deviceChunk : min((i+1)*deviceChunk, len(devices))] {
			n += bound(d)
		}
		start[i+1] = start[i] + n
	}
	all := make([]Result, start[chunks], start[chunks]+room)
	// Written through once, here, before the workers fill it. make does not write memory
	// fresh from the OS (it is zero already); a GC cycle that scans the slice before a worker
	// writes a page maps the kernel's shared zero page there, and the later write is then a
	// copy-on-write fault with a TLB shootdown on every core: at 10,000 devices those faults
	// were ~14% of check's CPU (perf: do_wp_page under switchResults). A first touch by a
	// write is one plain fault.
	touchZeroed(all[:cap(all)])
	filled := make([]int, chunks)
	parallel.Each(chunks, func() func(int) {
		texts := resultTexts{}
		return func(i int) {
			out := all[start[i]:start[i]:start[i+1]]
			for _, d := range devices[i*deviceChunk : min((i+1)*deviceChunk, len(devices))] {
				out = judge(d, out)
			}
			texts.shareTexts(out)
			if len(out) > start[i+1]-start[i] {
				panic("checks: a device has more results than its bound") // a bug in bound
			}
			filled[i] = len(out)
		}
	})
	n := 0
	for i := range chunks {
		if n != start[i] {
			copy(all[n:], all[start[i]:start[i]+filled[i]])
		}
		n += filled[i]
	}
	clear(all[n:]) // drop what the closed-up windows still point to
	return all[:n]
}

// resultTexts holds one copy of each actual and message text of results: a million results
// of 10,000 devices spell ~63 MB of them, ~7 MB distinct. Peers are not looked up (each is
// one string per port or link already, which its results share), nor empty texts (most
// messages): those look-ups were two thirds of the sharing's cost.
type resultTexts map[string]string

func (t resultTexts) share(s string) string {
	if s == "" {
		return s
	}
	if v, ok := t[s]; ok {
		return v
	}
	t[s] = s
	return s
}

func (t resultTexts) shareTexts(rs []Result) {
	for i := range rs {
		r := &rs[i]
		r.Actual, r.Message = t.share(r.Actual), t.share(r.Message)
	}
}

// deviceResults appends to out the results of one device: its device checks, then its
// host ports', then its switch ports'.
func deviceResults(r recipe.Recipe, cat []*Check, f *fabric, sc *scope, linked map[string]map[string]topology.PortRef, d *topology.Device, opts Options, out []Result) []Result {
	if sc != nil && !sc.hasDevice(d.Name) {
		return out
	}
	for _, c := range cat {
		if c.device == nil {
			continue
		}
		// A device that could not be collected is reported whatever --only/--skip say:
		// filtering must never turn an incomplete audit into a pass.
		if v := c.device(r, d); opts.wants(c.ID) || v.status == Error {
			out = append(out, c.result(r, v, d.Name, ""))
		}
	}
	if !d.Reachable {
		return out
	}
	if d.Host != nil {
		for _, p := range d.Host.Ports {
			if !sc.hasPort(d.Name, p.Netdev) {
				continue
			}
			for _, c := range cat {
				if c.hostPort != nil && opts.wants(c.ID) {
					e := end{ref: topology.PortRef{Device: d.Name, Interface: p.Netdev}, dev: d, host: p}
					v := opts.portFix(c, c.hostPort(r, d, p), e, r)
					out = append(out, c.result(r, v, d.Name, p.Netdev))
				}
			}
		}
	}
	if d.Switch != nil {
		peers := linked[d.Name] // read only: a copy only when a scope narrows it
		if sc != nil {
			peers = map[string]topology.PortRef{}
			for port, peer := range linked[d.Name] {
				if sc.hasPort(d.Name, port) {
					peers[port] = peer
				}
			}
		}
		out = switchResults(r, cat, f, d, peers, opts, out)
	}
	return out
}

// linkResults compares both ends of every link in scope; there are at most capacity results.
func linkResults(r recipe.Recipe, cat []*Check, f *fabric, sc *scope, opts Options, capacity int) []Result {
	// Sized once (grown append by append, the ~170,000 link results of 10,000 devices were
	// ~100 MB of copies), and written through before it is filled (see touchZeroed).
	out := make([]Result, 0, capacity)
	touchZeroed(out[:cap(out)])
	for _, l := range f.links {
		if !sc.hasLink(l) {
			continue
		}
		a, b := f.end(l.A), f.end(l.B)
		peer := l.B.String()
		for _, c := range cat {
			if c.link == nil || !opts.wants(c.ID) {
				continue
			}
			res := c.result(r, opts.linkFix(c, c.link(r, a, b), r, a, b), l.A.Device, l.A.Interface)
			res.Peer = peer
			out = append(out, res)
		}
	}
	for _, dl := range f.declared {
		if !declaredInScope(sc, dl) {
			continue
		}
		for _, c := range cat {
			if c.declared == nil || !opts.wants(c.ID) {
				continue
			}
			res := c.result(r, opts.linkFix(c, c.declared(r, dl), r), dl.Link.A.Device, dl.Link.A.Interface)
			res.Peer = dl.Link.B.String()
			out = append(out, res)
		}
	}
	return out
}

// linksInScope counts the links and declared links whose checks run (linkResults).
func linksInScope(f *fabric, sc *scope) (links, declared int) {
	if sc == nil {
		return len(f.links), len(f.declared)
	}
	for _, l := range f.links {
		if sc.hasLink(l) {
			links++
		}
	}
	for _, dl := range f.declared {
		if declaredInScope(sc, dl) {
			declared++
		}
	}
	return links, declared
}

func declaredInScope(sc *scope, dl topology.DeclaredLink) bool {
	return sc.hasLink(dl.Link) || (dl.Seen != nil && sc.hasLink(*dl.Seen))
}

// switchResults appends to out the checks of the ports of one switch that link two
// inventory devices.
func switchResults(r recipe.Recipe, cat []*Check, f *fabric, d *topology.Device, peers map[string]topology.PortRef, opts Options, out []Result) []Result {
	// The fabric's index of the switch's ports, the same map built from the same ports,
	// unless another device of the fabric holds the name.
	ports := f.swPorts[d.Name]
	if f.devices[d.Name] != d || (ports == nil && len(d.Switch.Ports) > 0) {
		ports = map[string]*topology.SwitchPort{}
		for _, p := range d.Switch.Ports {
			ports[topology.NormalizePort(p.Name)] = p
		}
	}
	names := make([]string, 0, len(peers))
	for n := range peers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, key := range names {
		peer := peers[key]
		peerName := peer.String()
		p, ok := ports[key]
		for _, c := range cat {
			if c.switchPort == nil || !opts.wants(c.ID) {
				continue
			}
			var v verdict
			iface := key
			if ok {
				iface = p.Name
				v = c.switchPort(r, d, p)
				if c.withPeer != nil {
					v = c.withPeer(r, p, f.end(peer), v)
				}
			} else {
				v = verdict{status: Error, actual: "port not reported",
					message:  "the switch did not report port " + key + ", which a link names",
					evidence: &topology.Evidence{Error: "port " + key + " missing from the collected facts"}}
			}
			e := end{ref: topology.PortRef{Device: d.Name, Interface: iface}, dev: d, sw: p}
			res := c.result(r, opts.portFix(c, v, e, r), d.Name, iface)
			res.Peer = peerName
			out = append(out, res)
		}
	}
	return out
}

func (c *Check) result(r recipe.Recipe, v verdict, device, iface string) Result {
	if v.device != "" {
		device, iface = v.device, v.iface
	}
	res := Result{
		Check:     c.ID,
		Status:    v.status,
		Severity:  c.Severity,
		Device:    device,
		Interface: iface,
		Expected:  c.expectedText(r),
		Actual:    v.actual,
		Message:   v.message,
	}
	if v.status != Pass && v.status != Skip {
		res.Evidence = v.evidence
		res.Remediation = v.remediation
	}
	return res
}

// expectedText is c.Expected(r), computed once per run (Run sets it).
func (c *Check) expectedText(r recipe.Recipe) string {
	if c.expected != nil {
		return *c.expected
	}
	return c.Expected(r)
}

// Outcome is what a set of results means for the exit code.
type Outcome struct {
	Failed     bool // a failure at or above the threshold
	Incomplete bool // some check could not decide
}

// Judge applies --fail-on: a fail counts when its severity reaches the threshold; with the
// threshold at warning, warn results count too. No result at all is incomplete, not a pass.
func Judge(results []Result, failOn Severity) Outcome {
	o := Outcome{Incomplete: len(results) == 0}
	for _, r := range results {
		switch r.Status {
		case Fail:
			if r.Severity.Rank() >= failOn.Rank() {
				o.Failed = true
			}
		case Warn:
			if failOn == Warning {
				o.Failed = true
			}
		case Error:
			o.Incomplete = true
		}
	}
	return o
}

// ParseSeverity reads a --fail-on value.
func ParseSeverity(s string) (Severity, bool) {
	switch sev := Severity(strings.ToLower(s)); sev { // --fail-on WARNING, as --only takes any case
	case Critical, SevError, Warning:
		return sev, true
	}
	return "", false
}
