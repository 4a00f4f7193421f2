package topology

import (
	"maps"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/internal/parallel"
)

// Deadlock analysis of the lossless priority (PFC deadlock: a cyclic buffer dependency).
//
// The buffer dependency graph has one node per egress queue of the lossless priority on a
// switch port that links two switches and carries PFC on that priority at both ends (a
// "lossless queue"). For every equal-cost path between the analysed host ports, with transit
// switches s1..sk and out-ports o1..ok, there is an edge (si, oi) -> (si+1, oi+1) when both
// queues are lossless: a packet held in queue (si, oi) waits for buffer at si+1's ingress
// port, which PFC keeps full (pausing si) until the packets there leave by (si+1, oi+1). A
// cycle in that graph can pause forever. Queues toward hosts are left out: a host never
// forwards, so such a queue depends on nothing and cannot be on a cycle.
//
// Paths are those of the links as they are (declared and LLDP), between one pair of host
// ports per pair of switches that hosts attach to (leaves): hosts never transit, so every
// host of a leaf adds the same inter-switch dependencies as the leaf's representative, and
// the work is quadratic in leaves, not in hosts. Every host pair is analysed rather than the inventory's paths:, because a
// deadlock needs only the traffic that can flow, not the traffic someone chose to test.

// DefaultDeadlockQueries bounds the path computations one analysis makes (each one BFS over
// the fabric plus its equal-cost paths): the leaf pairs first, then single-link failures.
const DefaultDeadlockQueries = 5000

// DeadlockInput is what the analysis reads.
type DeadlockInput struct {
	Devices []*Device
	Links   []Link
	// Lossless says whether a switch port carries PFC on the lossless priority; the caller
	// decides what an unreadable port counts as.
	Lossless func(p PortRef) bool
	// MaxQueries bounds the path computations; 0 is DefaultDeadlockQueries.
	MaxQueries int
}

// DependencyCycle is one strongly connected component of the buffer dependency graph.
type DependencyCycle struct {
	Queues []PortRef // every queue of the component, sorted
	// Cycle is one concrete cycle through the component's first queue, in dependency order;
	// it closes back on Cycle[0].
	Cycle []PortRef
}

// Valley is a path whose switch tiers go down and then up again.
type Valley struct {
	From, To Endpoint
	Hops     []Hop
	// Failed is the link whose failure (alone) makes the path one of the shortest; nil for a
	// valley of the fabric as it is.
	Failed *Link
}

// DeadlockAnalysis is what AnalyseDeadlock finds, every list sorted.
type DeadlockAnalysis struct {
	Endpoints  []Endpoint     // the first host port of each leaf
	Pairs      int            // endpoint pairs analysed (each in both directions)
	PairsTotal int            // endpoint pairs there are
	Paths      int            // directed equal-cost paths analysed
	Queues     int            // lossless inter-switch queues
	Tiers      map[string]int // switch -> hop distance to the nearest host (leaf 1, spine 2, ...)
	Untiered   []string       // switches no host reaches: not analysed
	Truncated  bool           // a pair had more than MaxPaths equal-cost paths
	Cycles     []DependencyCycle
	Valleys    []Valley // lossless valleys of the fabric as it is
	// FailureValleys are the lossless valleys that appear when one inter-switch link fails.
	FailureValleys []Valley
	SameTier       []Link // lossless links between two switches of the same tier
	// LinksFailed of FailableLinks inter-switch links had their failure analysed (fewer when
	// the query budget ran out).
	LinksFailed, FailableLinks int
}

// pairPaths is one endpoint pair and its equal-cost paths from the first to the second, as
// directed edges of the graph (Graph.arc).
type pairPaths struct {
	a, b  Endpoint
	paths [][]int32
}

// The analysis walks every hop of millions of paths, so it works on numbers: a path is its
// directed edges (arcs), a queue the number of its port. As PortRefs in maps, hashing the
// strings of each hop was most of a 10,000-device fabric's analysis.
type deadlockRun struct {
	in      DeadlockInput
	host    map[string]bool
	tiers   map[string]int
	budget  int
	out     *DeadlockAnalysis
	current map[string]bool // valleys of the intact fabric, by hop text

	g         *Graph
	tierOf    []int     // node -> tiers[name] (0 for a host)
	ports     []PortRef // port number -> port
	outPort   []int32   // arc -> the port it leaves by
	inPort    []int32   // arc -> the port it enters by
	rev       []int32   // arc -> the same link the other way
	lossless  []int8    // port number -> 0 not asked yet, 1 lossless, 2 not
	linkKeyOf []int32   // link -> number of its linkKey
	keyLinks  [][]int   // linkKey number -> its links, by index
	keyText   [][2]string
}

// number gives the graph's arcs their port numbers and reverses, and the nodes their tiers.
func (r *deadlockRun) number() {
	g := r.g
	arcs := len(g.from)
	// Sized once: two ports an arc at most (a 10,000-device Clos has ~80,000 ports), grown
	// insert by insert the map was a third of the analysis's allocation.
	index := make(map[PortRef]int32, arcs)
	r.ports = make([]PortRef, 0, arcs)
	port := func(p PortRef) int32 {
		if i, ok := index[p]; ok {
			return i
		}
		index[p] = int32(len(r.ports))
		r.ports = append(r.ports, p)
		return index[p]
	}
	r.outPort, r.inPort, r.rev = make([]int32, arcs), make([]int32, arcs), make([]int32, arcs)
	side := make([][2]int32, g.links) // link -> its arcs, in the order NewGraph added them
	for i := range side {
		side[i] = [2]int32{-1, -1}
	}
	for a := range int32(arcs) {
		e := g.arc(a)
		r.outPort[a] = port(PortRef{g.names[g.from[a]], e.local})
		r.inPort[a] = port(PortRef{g.names[e.to], e.remote})
		if side[e.link][0] < 0 {
			side[e.link][0] = a
		} else {
			side[e.link][1] = a
		}
	}
	for _, s := range side {
		if s[0] >= 0 && s[1] >= 0 {
			r.rev[s[0]], r.rev[s[1]] = s[1], s[0]
		}
	}
	r.lossless = make([]int8, len(r.ports))
	r.tierOf = make([]int, len(g.names))
	for i, name := range g.names {
		r.tierOf[i] = r.tiers[name]
	}
	keys := map[[2]string]int32{}
	r.linkKeyOf = make([]int32, len(r.in.Links))
	for i, l := range r.in.Links {
		k := linkKey(l)
		id, ok := keys[k]
		if !ok {
			id = int32(len(keys))
			keys[k] = id
			r.keyText = append(r.keyText, k)
			r.keyLinks = append(r.keyLinks, nil)
		}
		r.linkKeyOf[i] = id
		r.keyLinks[id] = append(r.keyLinks[id], i)
	}
}

// losslessPort is in.Lossless of a port, asked once.
func (r *deadlockRun) losslessPort(p int32) bool {
	if r.lossless[p] == 0 {
		r.lossless[p] = 2
		if r.in.Lossless(r.ports[p]) {
			r.lossless[p] = 1
		}
	}
	return r.lossless[p] == 1
}

// losslessArc is whether both ports of an arc are lossless (the second asked only when the
// first is, as losslessLink).
func (r *deadlockRun) losslessArc(a int32) bool {
	return r.losslessPort(r.outPort[a]) && r.losslessPort(r.inPort[a])
}

// AnalyseDeadlock builds the buffer dependency graph of the lossless priority, finds its
// cycles, and looks for valleys now and after any single inter-switch link failure.
func AnalyseDeadlock(in DeadlockInput) DeadlockAnalysis {
	if in.MaxQueries <= 0 {
		in.MaxQueries = DefaultDeadlockQueries
	}
	out := DeadlockAnalysis{}
	r := &deadlockRun{in: in, host: map[string]bool{}, budget: in.MaxQueries, out: &out, current: map[string]bool{}}
	for _, d := range in.Devices {
		r.host[d.Name] = d.Role == RoleHost
	}
	g := NewGraph(in.Devices, in.Links) // one graph for the tiers and every path query
	r.tiers, out.Untiered = g.tiers()
	out.Tiers = r.tiers
	leaves := leafPorts(in.Links, r.host)
	for _, eps := range leaves {
		out.Endpoints = append(out.Endpoints, eps[0])
	}
	out.SameTier = r.sameTier()

	var pairs []pairPaths
	r.g = g
	r.number()
	// Only the pairs the budget reaches are listed; the rest are counted.
	var ends [][2]Endpoint
	for i := range leaves {
		for j := i + 1; j < len(leaves); j++ {
			a, b, ok := leafPair(leaves[i], leaves[j])
			if !ok {
				continue // one host alone on both leaves: it does not send to itself
			}
			if out.PairsTotal++; len(ends) < r.budget {
				ends = append(ends, [2]Endpoint{a, b})
			}
		}
	}
	answered, ok := r.queryAll(g, ends)
	for i, pp := range answered {
		if ok[i] {
			pairs = append(pairs, pp)
		}
	}
	out.Pairs = len(pairs)
	for _, pp := range pairs {
		out.Paths += 2 * len(pp.paths) // each path and its reverse
		for _, p := range pp.paths {
			if r.losslessValley(p) {
				hops := g.hops(p)
				out.Valleys = append(out.Valleys, Valley{From: pp.a, To: pp.b, Hops: hops})
				r.current[hopsText(hops)] = true
			}
		}
	}
	nodes, adj := r.dependencies(pairs, out.Paths)
	out.Queues = len(nodes)
	out.Cycles = dependencyCycles(nodes, adj)
	r.failures(g, pairs)
	return out
}

// reverse appends to buf the path of arcs p the other way.
func (r *deadlockRun) reverse(buf, p []int32) []int32 {
	for i := len(p) - 1; i >= 0; i-- {
		buf = append(buf, r.rev[p[i]])
	}
	return buf
}

// queryAll is each pair's paths, in order, while the budget lasts (ok false for a pair past
// it or with no path query possible). The queries run on every core: the graph is only read.
func (r *deadlockRun) queryAll(g *Graph, ends [][2]Endpoint) (out []pairPaths, ok []bool) {
	n := min(len(ends), r.budget)
	r.budget -= n
	type answer struct {
		paths [][]int32
		trunc bool
		err   error
	}
	answers := make([]answer, n)
	// The pairs by destination, each group one search (Graph.arcPathsTo); the groups run on
	// every core.
	var groups [][]int
	group := map[Endpoint]int{}
	for i := range n {
		k, ok := group[ends[i][1]]
		if !ok {
			k = len(groups)
			group[ends[i][1]] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	parallel.Each(len(groups), func() func(int) {
		return func(k int) {
			srcs := make([]Endpoint, len(groups[k]))
			for j, i := range groups[k] {
				srcs[j] = ends[i][0]
			}
			g.arcPathsTo(srcs, ends[groups[k][0]][1], func(j int, paths [][]int32, trunc bool, err error) {
				answers[groups[k][j]] = answer{paths, trunc, err}
			})
		}
	})
	out, ok = make([]pairPaths, len(ends)), make([]bool, len(ends))
	for i, a := range answers {
		if a.err != nil {
			continue
		}
		r.out.Truncated = r.out.Truncated || a.trunc
		out[i], ok[i] = pairPaths{a: ends[i][0], b: ends[i][1], paths: a.paths}, true
	}
	return out, ok
}

// Tiers is each switch's hop distance to the nearest host over the links (hosts do not
// forward), and the switches no host reaches.
func Tiers(devices []*Device, links []Link) (map[string]int, []string) {
	return NewGraph(devices, links).tiers()
}

func (g *Graph) tiers() (map[string]int, []string) {
	dist := make([]int, len(g.names))
	var queue []int
	for i := range g.names {
		dist[i] = -1
		if g.host[i] {
			dist[i] = 0
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range g.adj[n] {
			if dist[e.to] < 0 && !g.host[e.to] {
				dist[e.to] = dist[n] + 1
				queue = append(queue, e.to)
			}
		}
	}
	tiers := map[string]int{}
	var untiered []string
	for i, name := range g.names {
		switch {
		case g.host[i]:
		case dist[i] > 0:
			tiers[name] = dist[i]
		default:
			untiered = append(untiered, name)
		}
	}
	slices.Sort(untiered)
	return tiers, untiered
}

// leafPorts lists, per switch that host ports are linked to, those ports sorted, by switch.
func leafPorts(links []Link, host map[string]bool) [][]Endpoint {
	by := map[string][]Endpoint{}
	for _, l := range links {
		for _, e := range [][2]PortRef{{l.A, l.B}, {l.B, l.A}} {
			if h, sw := e[0], e[1]; host[h.Device] && !host[sw.Device] {
				by[sw.Device] = append(by[sw.Device], Endpoint{Device: h.Device, Interface: h.Interface})
			}
		}
	}
	var out [][]Endpoint
	for _, sw := range slices.Sorted(maps.Keys(by)) {
		eps := by[sw]
		slices.SortFunc(eps, compareEndpointTexts)
		out = append(out, slices.Compact(eps))
	}
	return out
}

// leafPair is the pair of host ports that stands for traffic between two leaves: the first
// port of each, but of two different hosts (rail twins carry the same dual-homed hosts).
func leafPair(a, b []Endpoint) (Endpoint, Endpoint, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.Device != y.Device {
				return x, y, true
			}
		}
	}
	return Endpoint{}, Endpoint{}, false
}

func (r *deadlockRun) interSwitch(l Link) bool { return !r.host[l.A.Device] && !r.host[l.B.Device] }

func (r *deadlockRun) losslessLink(a, b PortRef) bool { return r.in.Lossless(a) && r.in.Lossless(b) }

// sameTier lists the lossless links between two switches of the same tier.
func (r *deadlockRun) sameTier() []Link {
	var out []Link
	for _, l := range r.in.Links {
		ta, oka := r.tiers[l.A.Device]
		tb, okb := r.tiers[l.B.Device]
		if r.interSwitch(l) && oka && okb && ta == tb && r.losslessLink(l.A, l.B) {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, compareLinks)
	return out
}

// losslessValley reports whether a path goes down and then up again over lossless links only.
// Hop i of a path of arcs leaves by arc i (the last hop, its destination, by none).
func (r *deadlockRun) losslessValley(p []int32) bool {
	down := false
	for i := 1; i+1 < len(p); i++ {
		if !r.losslessArc(p[i]) {
			return false
		}
	}
	for i := 1; i+1 < len(p); i++ {
		t, next := r.tierOf[r.g.from[p[i]]], r.tierOf[r.g.arc(p[i]).to]
		switch {
		case next < t:
			down = true
		case next > t && down:
			return true
		}
	}
	return false
}

const edgeCacheBits = 14

// dependencies is the buffer dependency graph of the pairs' paths, each taken both ways
// (paths of them): its nodes sorted, and per node the sorted indexes of the queues it waits
// on. The reverse of a path is walked from one scratch array, not kept (at 10,000 devices
// 640,000 directed paths were a fifth of the analysis's allocation).
func (r *deadlockRun) dependencies(pairs []pairPaths, paths int) ([]PortRef, [][]int) {
	// Edges (prev<<32 | q) are listed, then sorted and made unique: a set of them in a map was
	// a third of the analysis (a 10,000-device Clos has one distinct edge per path: ~640,000).
	// A direct-mapped cache of edges already listed keeps repeats out of the list.
	edges := make([]uint64, 0, paths)
	seen := make([]uint64, 1<<edgeCacheBits)
	for i := range seen {
		seen[i] = ^uint64(0)
	}
	queue := make([]bool, len(r.ports))
	visit := func(p []int32) {
		prev := int32(-1)
		// Transit hops are 1..len(p)-1; hop i's queue is inter-switch when hop i+1 transits too.
		for i := 1; i+1 < len(p); i++ {
			if !r.losslessArc(p[i]) {
				prev = -1
				continue
			}
			q := r.outPort[p[i]]
			queue[q] = true
			if prev >= 0 {
				k := uint64(uint32(prev))<<32 | uint64(uint32(q))
				if h := (k * 0x9e3779b97f4a7c15) >> (64 - edgeCacheBits); seen[h] != k {
					seen[h] = k
					edges = append(edges, k)
				}
			}
			prev = q
		}
	}
	var back []int32
	for _, pp := range pairs {
		for _, p := range pp.paths {
			visit(p)
			back = r.reverse(back[:0], p)
			visit(back)
		}
	}
	var nodeIDs []int32
	for q, ok := range queue {
		if ok {
			nodeIDs = append(nodeIDs, int32(q))
		}
	}
	slices.SortFunc(nodeIDs, func(x, y int32) int { return comparePorts(r.ports[x], r.ports[y]) })
	nodes := make([]PortRef, len(nodeIDs))
	index := make([]int, len(r.ports))
	for i, q := range nodeIDs {
		nodes[i] = r.ports[q]
		index[q] = i
	}
	// Sorted, the edges of each queue are one run: its list is a window of one array.
	adj := make([][]int, len(nodes))
	slices.Sort(edges)
	edges = slices.Compact(edges)
	flat := make([]int, len(edges))
	for i := 0; i < len(edges); {
		from := uint32(edges[i] >> 32)
		j := i
		for ; j < len(edges) && uint32(edges[j]>>32) == from; j++ {
			flat[j] = index[int32(uint32(edges[j]))]
		}
		list := flat[i:j:j]
		slices.Sort(list)
		adj[index[int32(from)]] = list
		i = j
	}
	return nodes, adj
}

// failures recomputes, for each inter-switch link in turn, the paths of the pairs that use it
// (removing a link no shortest path crosses changes no pair's paths) and keeps the lossless
// valleys that the fabric as it is does not already have.
func (r *deadlockRun) failures(whole *Graph, pairs []pairPaths) {
	// Sorted by the keys number made once: compareLinks builds two keys per comparison,
	// which at 16,000 inter-switch links was ~0.15 s of the analysis's serial part. The same
	// sort as over the links themselves (not a stable one), so links of one key (a link
	// declared and seen, or listed both ways) fail in the order they always did.
	var failable []int // link indexes
	for i, l := range r.in.Links {
		if r.interSwitch(l) {
			failable = append(failable, i)
		}
	}
	slices.SortFunc(failable, func(x, y int) int {
		return compareKeys(r.keyText[r.linkKeyOf[x]], r.keyText[r.linkKeyOf[y]])
	})
	r.out.FailableLinks = len(failable)
	// The pairs whose paths use each link key, in pair order.
	users := make([][]int, len(r.keyLinks))
	for i, pp := range pairs {
		for _, p := range pp.paths {
			for _, a := range p {
				k := r.linkKeyOf[whole.arc(a).link]
				if u := users[k]; len(u) == 0 || u[len(u)-1] != i {
					users[k] = append(u, i)
				}
			}
		}
	}
	for _, li := range failable {
		failed, key := r.in.Links[li], r.linkKeyOf[li]
		affected := users[key]
		if len(affected) > r.budget {
			return
		}
		// A failed link is cut from the graph of the intact fabric (with any duplicate of
		// it) rather than the graph rebuilt without it.
		g := whole.without(r.keyLinks[key])
		ends := make([][2]Endpoint, len(affected))
		for k, i := range affected {
			ends[k] = [2]Endpoint{pairs[i].a, pairs[i].b}
		}
		answered, _ := r.queryAll(g, ends)
		for _, pp := range answered {
			for _, p := range pp.paths {
				if !r.losslessValley(p) {
					continue
				}
				if hops := g.hops(p); !r.current[hopsText(hops)] {
					f := failed
					r.out.FailureValleys = append(r.out.FailureValleys, Valley{From: pp.a, To: pp.b, Hops: hops, Failed: &f})
				}
			}
		}
		r.out.LinksFailed++
	}
}

// hopsText spells a path hop by hop: "leaf1[Ethernet0>Ethernet48] spine1[...]".
func hopsText(p []Hop) string {
	parts := make([]string, len(p))
	for i, h := range p {
		parts[i] = h.Device + "[" + h.InPort + ">" + h.OutPort + "]"
	}
	return strings.Join(parts, " ")
}

func comparePorts(x, y PortRef) int {
	if c := strings.Compare(x.Device, y.Device); c != 0 {
		return c
	}
	return strings.Compare(x.Interface, y.Interface)
}

func compareLinks(x, y Link) int { return compareKeys(linkKey(x), linkKey(y)) }

func compareKeys(kx, ky [2]string) int {
	if c := strings.Compare(kx[0], ky[0]); c != 0 {
		return c
	}
	return strings.Compare(kx[1], ky[1])
}

// compareEndpointTexts orders endpoints as their String()s compare, without building them:
// building two strings a comparison was ~280,000 allocations at 10,000 devices.
func compareEndpointTexts(x, y Endpoint) int {
	xs, ys := endpointText(x), endpointText(y)
	return compareJoined(xs[:], ys[:])
}

// endpointText is e.String() in parts.
func endpointText(e Endpoint) [3]string {
	if e.Interface == "" {
		return [3]string{e.Device}
	}
	return [3]string{e.Device, ":", e.Interface}
}

// compareJoined compares the concatenation of a's parts with that of b's.
func compareJoined(a, b []string) int {
	var x, y string
	for {
		for x == "" && len(a) > 0 {
			x, a = a[0], a[1:]
		}
		for y == "" && len(b) > 0 {
			y, b = b[0], b[1:]
		}
		switch {
		case x == "" && y == "":
			return 0
		case x == "":
			return -1
		case y == "":
			return 1
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		x, y = x[n:], y[n:]
	}
}
