package topology

import (
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
)

// Endpoint is one end of a path: a host and, when known, the netdev traffic leaves by.
type Endpoint struct {
	Device    string `json:"device"`
	Interface string `json:"interface,omitempty"`
}

func (e Endpoint) String() string {
	if e.Interface == "" {
		return e.Device
	}
	return e.Device + ":" + e.Interface
}

// Hop is one device on a path with the port traffic enters by and the one it leaves by.
type Hop struct {
	Device  string `json:"device"`
	InPort  string `json:"in_port,omitempty"`
	OutPort string `json:"out_port,omitempty"`
}

// ResolveEndpoint reads "host", "host:netdev" or the IP address of a host's RDMA netdev (or of
// a VLAN on it, which resolves to the netdev underneath).
func ResolveEndpoint(s *Snapshot, text string) (Endpoint, error) {
	if ip := net.ParseIP(text); ip != nil {
		for _, d := range s.Devices {
			if d.Host == nil {
				continue
			}
			for _, p := range d.Host.Ports {
				devs := append([]Netdev{p.Link.Value}, p.Uppers...)
				for _, n := range devs {
					for _, a := range n.Addresses {
						if net.ParseIP(a).Equal(ip) {
							return Endpoint{Device: d.Name, Interface: p.Netdev}, nil
						}
					}
				}
			}
		}
		return Endpoint{}, fmt.Errorf("no audited host port has address %s", text)
	}
	name, iface, _ := strings.Cut(text, ":")
	var dev *Device
	for _, d := range s.Devices {
		if d.Name == name {
			dev = d
		}
	}
	if dev == nil {
		return Endpoint{}, fmt.Errorf("endpoint %q: no device %q in the inventory", text, name)
	}
	if dev.Role != RoleHost {
		return Endpoint{}, fmt.Errorf("endpoint %q: %s is a %s; paths run between hosts", text, name, dev.Role)
	}
	if !dev.Reachable {
		return Endpoint{}, fmt.Errorf("endpoint %q: %s was not reachable: %s", text, name, dev.Error)
	}
	if iface != "" && dev.Host != nil && dev.Host.Port(iface) == nil {
		var have []string
		for _, p := range dev.Host.Ports {
			have = append(have, p.Netdev)
		}
		return Endpoint{}, fmt.Errorf("endpoint %q: %s has no audited RDMA port %s (audited: %s)", text, name, iface, strings.Join(have, ", "))
	}
	return Endpoint{Device: name, Interface: iface}, nil
}

// Graph is the link graph of a fabric, built once and queried for many paths.
type Graph struct {
	index map[string]int
	names []string
	host  []bool
	adj   [][]edge
	links int // how many links NewGraph was given
	// cut are the links (by index in NewGraph's list) Paths treats as absent: the graph of a
	// link failure is the same graph with a cut, not a new one per failed link.
	cut []bool
	// A directed edge (an arc) is numbered first[n]+k for g.adj[n][k]; from[a] is its node.
	first []int32
	from  []int32
	// to[a] is arc a's far node: the searches scan a node's arcs by it, four bytes an arc
	// rather than an edge's 48 (a spine of a 10,000-device Clos has 256).
	to []int32
}

type edge struct {
	to            int
	local, remote string
	link          int // index of the link in NewGraph's list
}

// without is g with the links at the given indexes cut (failed); g itself is unchanged.
func (g *Graph) without(links []int) *Graph {
	c := *g
	c.cut = make([]bool, g.links)
	for _, i := range links {
		c.cut[i] = true
	}
	return &c
}

// NewGraph builds the graph of links between the snapshot's devices.
func NewGraph(devices []*Device, links []Link) *Graph {
	g := &Graph{index: map[string]int{}, links: len(links)}
	node := func(name string, host bool) int {
		if i, ok := g.index[name]; ok {
			return i
		}
		g.index[name] = len(g.names)
		g.names = append(g.names, name)
		g.host = append(g.host, host)
		g.adj = append(g.adj, nil)
		return len(g.names) - 1
	}
	for _, d := range devices {
		node(d.Name, d.Role == RoleHost)
	}
	for i, l := range links {
		a, b := node(l.A.Device, false), node(l.B.Device, false)
		g.adj[a] = append(g.adj[a], edge{to: b, local: l.A.Interface, remote: l.B.Interface, link: i})
		g.adj[b] = append(g.adj[b], edge{to: a, local: l.B.Interface, remote: l.A.Interface, link: i})
	}
	for i := range g.adj {
		sort.SliceStable(g.adj[i], func(x, y int) bool {
			ex, ey := g.adj[i][x], g.adj[i][y]
			if g.names[ex.to] != g.names[ey.to] {
				return g.names[ex.to] < g.names[ey.to]
			}
			return ex.local < ey.local
		})
	}
	g.first = make([]int32, len(g.adj)+1)
	for n, es := range g.adj {
		g.first[n+1] = g.first[n] + int32(len(es))
		for _, e := range es {
			g.from = append(g.from, int32(n))
			g.to = append(g.to, int32(e.to))
		}
	}
	return g
}

// arc is the edge a directed edge number stands for.
func (g *Graph) arc(a int32) edge { return g.adj[g.from[a]][a-g.first[g.from[a]]] }

// hops spells a path of directed edges hop by hop, as Paths lists it.
func (g *Graph) hops(arcs []int32) []Hop {
	out := make([]Hop, 0, len(arcs)+1)
	in := ""
	for _, a := range arcs {
		e := g.arc(a)
		out = append(out, Hop{Device: g.names[g.from[a]], InPort: in, OutPort: e.local})
		in = e.remote
	}
	return append(out, Hop{Device: g.names[g.arc(arcs[len(arcs)-1]).to], InPort: in})
}

// bfsBuffer is one path query's distances and queue, reused across queries (the deadlock
// analysis makes thousands on one graph: a fresh pair per query was most of its allocation),
// and the walks' lists of next hops toward one destination (walkMemo).
type bfsBuffer struct {
	dist, queue []int
	memo        walkMemo
}

// walkMemo lists, per node, the arcs that lead one hop nearer the destination of one search,
// as the walk finds them: every source of arcPathsTo walks the same spines and leaves
// toward it. Scanning each spine's 256 arcs for the one leaf nearer, for every source, was
// most of the deadlock analysis's path walks at 10,000 devices (Graph.walk ~27% of
// BenchmarkAnalyseDeadlock); listed once per destination: 422 -> 302 ms an op.
type walkMemo struct {
	at    []int32    // node -> 1 + its span's index; 0: not listed yet
	spans [][2]int32 // a node's arcs, as a window of arcs
	arcs  []int32
	nodes []int32 // the nodes listed, to forget them
}

// reset forgets every list, for a search toward another destination (or another graph).
func (m *walkMemo) reset(nodes int) {
	if len(m.at) < nodes {
		m.at = make([]int32, nodes)
	}
	for _, n := range m.nodes {
		m.at[n] = 0
	}
	m.spans, m.arcs, m.nodes = m.spans[:0], m.arcs[:0], m.nodes[:0]
}

// down is the arcs out of node n (not the source) that a shortest path to dst (b) takes,
// down the distances dist, in adjacency order: what walk's own scan keeps of them.
func (m *walkMemo) down(g *Graph, dist []int, b Endpoint, dst, n int) []int32 {
	if i := m.at[n]; i > 0 {
		s := m.spans[i-1]
		return m.arcs[s[0]:s[1]:s[1]]
	}
	lo := int32(len(m.arcs))
	want, base := dist[n]-1, g.first[n]
	for k, to := range g.to[base:g.first[n+1]] {
		// As in walk, for a node that is not the source (src -1: no source netdev pin).
		if dist[to] != want || (int(to) != dst && g.host[to]) || !g.allowed(Endpoint{}, -1, b, dst, n, g.adj[n][k]) {
			continue
		}
		m.arcs = append(m.arcs, base+int32(k))
	}
	m.spans = append(m.spans, [2]int32{lo, int32(len(m.arcs))})
	m.at[n] = int32(len(m.spans))
	m.nodes = append(m.nodes, int32(n))
	hi := int32(len(m.arcs))
	return m.arcs[lo:hi:hi]
}

var bfsBuffers sync.Pool

// scratch is a buffer sized for g, from the pool when one fits.
func (g *Graph) scratch() *bfsBuffer {
	n := len(g.names)
	if b, ok := bfsBuffers.Get().(*bfsBuffer); ok && cap(b.dist) >= n {
		b.dist = b.dist[:n]
		return b
	}
	return &bfsBuffer{dist: make([]int, n), queue: make([]int, 0, n)}
}

// MaxPaths bounds how many equal-cost paths are listed for one endpoint pair.
const MaxPaths = 256

// Paths lists every equal-cost shortest path from a to b, hop by hop with in- and out-ports.
// Hosts are never transit. Truncated is true when more than MaxPaths exist. Cost is one BFS
// from each end plus the enumeration itself: linear in the fabric for one path query.
func (g *Graph) Paths(a, b Endpoint) (paths [][]Hop, truncated bool, err error) {
	arcs, truncated, err := g.arcPaths(a, b)
	for _, p := range arcs {
		paths = append(paths, g.hops(p))
	}
	return paths, truncated, err
}

// arcPaths is Paths with each path its directed edges (see arc), in the same order: the
// deadlock analysis walks millions of hops, which as numbers need no string hashing.
func (g *Graph) arcPaths(a, b Endpoint) (paths [][]int32, truncated bool, err error) {
	src, dst, err := g.ends(a, b)
	if err != nil {
		return nil, false, err
	}
	buf := g.scratch()
	defer bfsBuffers.Put(buf)
	g.searchFrom(buf, b, dst, src, a.Interface)
	paths, truncated = g.walk(buf.dist, a, src, b, dst, nil)
	return paths, truncated, nil
}

// arcPathsTo is arcPaths from each of srcs to b, answered through each(i, ...) in turn. One
// search from b serves every source that is a host (hosts never transit, so no source
// changes another's distances): the deadlock analysis asks each leaf's representative for
// the same destinations, and a search per pair was most of its path work at 10,000 devices.
// It returns how many sources the shared search answered.
func (g *Graph) arcPathsTo(srcs []Endpoint, b Endpoint, each func(i int, paths [][]int32, truncated bool, err error)) (shared int) {
	hostSrc := make([]int, len(srcs)) // the node of each source the shared search serves, else -1
	dst := -1
	for i, a := range srcs {
		hostSrc[i] = -1
		if src, d, err := g.ends(a, b); err == nil && g.host[src] {
			hostSrc[i], dst = src, d
			shared++
		}
	}
	if shared < 2 {
		for i, a := range srcs {
			paths, trunc, err := g.arcPaths(a, b)
			each(i, paths, trunc, err)
		}
		return 0
	}
	buf := g.scratch()
	defer bfsBuffers.Put(buf)
	g.searchFrom(buf, b, dst, -1, "")
	dist := buf.dist
	// The hosts' distances change per source below, but no walk from another node takes a
	// host other than dst: the lists toward dst serve every source.
	buf.memo.reset(len(g.names))
	for i, a := range srcs {
		src := hostSrc[i]
		if src < 0 {
			paths, trunc, err := g.arcPaths(a, b)
			each(i, paths, trunc, err)
			continue
		}
		// The full search gave src a distance over any of its ports; a pinned netdev may
		// leave by a longer one, as arcPaths's own search would find.
		searched := dist[src]
		dist[src] = -1
		for _, e := range g.adj[src] {
			if d := dist[e.to]; d >= 0 && (e.to == dst || !g.host[e.to]) && g.allowed(a, src, b, dst, src, e) && (dist[src] < 0 || d+1 < dist[src]) {
				dist[src] = d + 1
			}
		}
		paths, trunc := g.walk(dist, a, src, b, dst, &buf.memo)
		dist[src] = searched
		each(i, paths, trunc, nil)
	}
	return shared
}

// ends are the graph nodes of a path's endpoints.
func (g *Graph) ends(a, b Endpoint) (src, dst int, err error) {
	src, ok1 := g.index[a.Device]
	dst, ok2 := g.index[b.Device]
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("unknown endpoint")
	}
	if src == dst {
		return 0, 0, fmt.Errorf("both endpoints are %s", a.Device)
	}
	return src, dst, nil
}

// allowed is whether a path from a (node src) to b (node dst) may take edge e out of node
// from: not a failed link, and the netdevs the endpoints are pinned to.
func (g *Graph) allowed(a Endpoint, src int, b Endpoint, dst, from int, e edge) bool {
	if g.cut != nil && g.cut[e.link] {
		return false
	}
	if from == src && a.Interface != "" && e.local != a.Interface {
		return false
	}
	if e.to == dst && b.Interface != "" && e.remote != b.Interface {
		return false
	}
	return true
}

// searchFrom fills buf.dist with each node's distance to dst (b), walking backwards; hosts
// other than dst do not forward. With a source (src >= 0, pinned to srcIface when set) it
// stops once src is reached: the walk only visits nodes nearer dst than src, all settled by
// then (a query between two hosts of a 10,000-device Clos does not visit every host).
// Without one (src -1) it searches the whole fabric.
func (g *Graph) searchFrom(buf *bfsBuffer, b Endpoint, dst, src int, srcIface string) {
	a := Endpoint{Interface: srcIface}
	dist := buf.dist
	for i := range dist {
		dist[i] = -1
	}
	dist[dst] = 0
	queue := append(buf.queue[:0], dst)
	for head := 0; head < len(queue) && (src < 0 || dist[src] < 0); head++ {
		n := queue[head]
		if n != dst && g.host[n] {
			continue
		}
		for k, to := range g.to[g.first[n]:g.first[n+1]] {
			if dist[to] >= 0 {
				continue
			}
			e := &g.adj[n][k]
			// e goes n -> e.to; the forward edge is e.to -> n.
			if !g.allowed(a, src, b, dst, e.to, edge{to: n, local: e.remote, remote: e.local, link: e.link}) {
				continue
			}
			dist[e.to] = dist[n] + 1
			queue = append(queue, e.to)
		}
	}
	buf.queue = queue
}

// walk lists the shortest paths from a (node src) to b (node dst) down the distances dist;
// memo (may be nil) keeps the next hops toward dst of nodes other than src across walks.
func (g *Graph) walk(dist []int, a Endpoint, src int, b Endpoint, dst int, memo *walkMemo) (paths [][]int32, truncated bool) {
	if dist[src] < 0 {
		return nil, false
	}
	// Every path is dist[src] arcs long: they are cut from one array, not allocated one by
	// one (the 10k analysis makes millions).
	hops := dist[src]
	var flat []int32
	var step func(n int, acc []int32)
	step = func(n int, acc []int32) {
		if truncated {
			return
		}
		if n == dst {
			if len(flat) == MaxPaths*hops {
				truncated = true
				return
			}
			flat = append(flat, acc...)
			return
		}
		if memo != nil && n != src {
			for _, k := range memo.down(g, dist, b, dst, n) {
				step(int(g.to[k]), append(acc, k))
			}
			return
		}
		want, base := dist[n]-1, g.first[n]
		for k, to := range g.to[base:g.first[n+1]] {
			if dist[to] != want || (int(to) != dst && g.host[to]) || !g.allowed(a, src, b, dst, n, g.adj[n][k]) {
				continue
			}
			step(int(to), append(acc, base+int32(k)))
		}
	}
	step(src, make([]int32, 0, hops))
	if len(flat) > 0 {
		paths = make([][]int32, len(flat)/hops)
		for i := range paths {
			paths[i] = flat[i*hops : (i+1)*hops : (i+1)*hops]
		}
	}
	return paths, truncated
}
