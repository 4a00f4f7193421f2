package reports

import (
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// The fabric drawing: devices in tiers (hosts at the bottom, each switch one tier above the
// nearest host it links to, spines on top), links as lines, each coloured by its worst result.
const (
	nodeW, nodeH = 96, 28
	nodeGap      = 118 // horizontal distance between node centres
	tierGap      = 90
	drawMargin   = 20
)

type drawNode struct {
	Name, Status, Anchor string
	Tier, X, Y           int // X, Y: top-left corner
}

type drawLink struct {
	A, B           string // "device:interface"
	Status, Anchor string
	X1, Y1, X2, Y2 int
	// alts are where the link lands, in order, when Anchor has no section (landAnchors).
	alts []string
}

type drawing struct {
	Width, Height int
	Nodes         []drawNode
	Links         []drawLink
}

type portKey = [2]string

// fabricLinks are the links a report knows of: a result's port and its peer, and the
// consecutive hops of every path. Each link once, its ends in natural order.
func fabricLinks(r *Report) [][2]portKey {
	seen := map[[2]portKey]bool{}
	var out [][2]portKey
	add := func(a, b portKey) {
		if a[0] == "" || b[0] == "" || a[0] == b[0] {
			return
		}
		if natCompare(a[0]+":"+a[1], b[0]+":"+b[1]) > 0 {
			a, b = b, a
		}
		if k := [2]portKey{a, b}; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, res := range r.Results {
		if res.Peer != "" && res.Interface != "" {
			d, i, _ := strings.Cut(res.Peer, ":")
			add(portKey{res.Device, res.Interface}, portKey{d, i})
		}
	}
	for _, p := range r.Paths {
		for _, hops := range p.Paths {
			for i := 0; i+1 < len(hops); i++ {
				add(portKey{hops[i].Device, hops[i].OutPort}, portKey{hops[i+1].Device, hops[i+1].InPort})
			}
		}
	}
	slices.SortFunc(out, func(x, y [2]portKey) int {
		if c := natCompare(x[0][0]+":"+x[0][1], y[0][0]+":"+y[0][1]); c != 0 {
			return c
		}
		return natCompare(x[1][0]+":"+x[1][1], y[1][0]+":"+y[1][1])
	})
	return out
}

// tiers places hosts in tier 0 and every other device at its hop distance from the nearest
// host; devices no host reaches go one tier above the highest.
func tiers(r *Report, links [][2]portKey) map[string]int {
	adj := map[string][]string{}
	names := map[string]bool{}
	for _, d := range r.Devices {
		names[d.Name] = true
	}
	for _, l := range links {
		adj[l[0][0]] = append(adj[l[0][0]], l[1][0])
		adj[l[1][0]] = append(adj[l[1][0]], l[0][0])
		names[l[0][0]], names[l[1][0]] = true, true
	}
	tier := map[string]int{}
	var queue []string
	for _, d := range r.Devices {
		if d.Role == topology.RoleHost {
			tier[d.Name] = 0
			queue = append(queue, d.Name)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj[n] {
			if _, ok := tier[m]; !ok {
				tier[m] = tier[n] + 1
				queue = append(queue, m)
			}
		}
	}
	top := 0
	for _, t := range tier {
		top = max(top, t)
	}
	for n := range names {
		if _, ok := tier[n]; !ok {
			tier[n] = top + 1
		}
	}
	return tier
}

// worst is the worst status seen so far and the index of the first result that had it, so
// that statuses gathered apart combine to what one scan in result order finds (worstOf).
type worst struct {
	status checks.Status
	at     int
}

func (w worst) with(status checks.Status, at int) worst {
	if w.status == "" || statusRank(status) < statusRank(w.status) ||
		(statusRank(status) == statusRank(w.status) && at < w.at) {
		return worst{status, at}
	}
	return w
}

func (w worst) and(o worst) worst {
	if o.status == "" {
		return w
	}
	return w.with(o.status, o.at)
}

// worstOf is the worst status of the results f selects, or "" when it selects none.
func worstOf(rs []checks.Result, f func(checks.Result) bool) checks.Status {
	var worst checks.Status
	for _, res := range rs {
		if f(res) && (worst == "" || statusRank(res.Status) < statusRank(worst)) {
			worst = res.Status
		}
	}
	return worst
}

// drawFabric lays out the report's devices and links.
func drawFabric(r *Report) drawing {
	links := fabricLinks(r)
	tier := tiers(r, links)
	byTier := map[int][]string{}
	top := 0
	for n, t := range tier {
		byTier[t] = append(byTier[t], n)
		top = max(top, t)
	}
	widest := 0
	for _, ns := range byTier {
		widest = max(widest, len(ns))
	}
	d := drawing{Width: 2*drawMargin + max(1, widest)*nodeGap, Height: 2*drawMargin + top*tierGap + nodeH}
	// Each device's and each port's worst, in one pass: a scan of every result per node and
	// per link was quadratic (hours for a 10,000-device report).
	byDevice, byPort := map[string]worst{}, map[portKey]worst{}
	for i, res := range r.Results {
		byDevice[res.Device] = byDevice[res.Device].with(res.Status, i)
		if res.Path == "" {
			p := portKey{res.Device, res.Interface}
			byPort[p] = byPort[p].with(res.Status, i)
		}
	}
	centre := map[string][2]int{}
	for t := 0; t <= top; t++ {
		ns := byTier[t]
		slices.SortFunc(ns, natCompare)
		offset := (d.Width - len(ns)*nodeGap) / 2
		for i, n := range ns {
			x := offset + i*nodeGap + (nodeGap-nodeW)/2
			y := drawMargin + (top-t)*tierGap
			d.Nodes = append(d.Nodes, drawNode{Name: n, Tier: t, X: x, Y: y, Anchor: anchorID("dev", n),
				Status: string(byDevice[n].status)})
			centre[n] = [2]int{x + nodeW/2, y + nodeH/2}
		}
	}
	for _, l := range links {
		a, b := centre[l[0][0]], centre[l[1][0]]
		st := byPort[l[0]].and(byPort[l[1]]).status
		d.Links = append(d.Links, drawLink{A: l[0][0] + ":" + l[0][1], B: l[1][0] + ":" + l[1][1], Status: string(st),
			Anchor: anchorID("port", l[0][0]+"-"+l[0][1]), X1: a[0], Y1: a[1], X2: b[0], Y2: b[1],
			alts: []string{anchorID("port", l[1][0]+"-"+l[1][1]), anchorID("dev", l[0][0]), anchorID("dev", l[1][0])}})
	}
	return d
}

// anchorID makes an HTML id from a name: letters, digits and '-' only, so "Ethernet1/3"
// and "leaf1" stay readable and ids never need escaping.
func anchorID(kind, name string) string {
	var b strings.Builder
	b.WriteString(kind)
	b.WriteByte('-')
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
