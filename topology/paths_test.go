package topology

import (
	"fmt"
	"strings"
	"testing"
)

func link(a, b string) Link {
	ad, ai, _ := strings.Cut(a, ":")
	bd, bi, _ := strings.Cut(b, ":")
	return Link{A: PortRef{ad, ai}, B: PortRef{bd, bi}, Source: "inventory"}
}

func devs(hosts []string, switches []string) []*Device {
	var out []*Device
	for _, h := range hosts {
		out = append(out, &Device{Name: h, Role: RoleHost})
	}
	for _, s := range switches {
		out = append(out, &Device{Name: s, Role: RoleSwitch})
	}
	return out
}

func render(paths [][]Hop) []string {
	var out []string
	for _, p := range paths {
		var hops []string
		for _, h := range p {
			hops = append(hops, fmt.Sprintf("%s[%s>%s]", h.Device, h.InPort, h.OutPort))
		}
		out = append(out, strings.Join(hops, " "))
	}
	return out
}

func TestTwoTierClosHasOnePathPerSpine(t *testing.T) {
	g := NewGraph(devs([]string{"gpu01", "gpu02"}, []string{"leaf1", "leaf2", "spine1", "spine2"}), []Link{
		link("gpu01:ens1f0np0", "leaf1:Ethernet0"), link("gpu02:ens1f0np0", "leaf2:Ethernet0"),
		link("leaf1:Ethernet48", "spine1:Ethernet0"), link("leaf1:Ethernet52", "spine2:Ethernet0"),
		link("leaf2:Ethernet48", "spine1:Ethernet4"), link("leaf2:Ethernet52", "spine2:Ethernet4"),
	})
	paths, trunc, err := g.Paths(Endpoint{"gpu01", "ens1f0np0"}, Endpoint{"gpu02", ""})
	if err != nil || trunc {
		t.Fatal(err, trunc)
	}
	want := []string{
		"gpu01[>ens1f0np0] leaf1[Ethernet0>Ethernet48] spine1[Ethernet0>Ethernet4] leaf2[Ethernet48>Ethernet0] gpu02[ens1f0np0>]",
		"gpu01[>ens1f0np0] leaf1[Ethernet0>Ethernet52] spine2[Ethernet0>Ethernet4] leaf2[Ethernet52>Ethernet0] gpu02[ens1f0np0>]",
	}
	if got := render(paths); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

func TestHostsAreNotTransitAndDualHoming(t *testing.T) {
	// gpu01 is dual-homed to leaf1 and leaf2; gpu03 on leaf1 must not reach leaf2 through gpu01.
	ds := devs([]string{"gpu01", "gpu02", "gpu03"}, []string{"leaf1", "leaf2"})
	g := NewGraph(ds, []Link{
		link("gpu01:p0", "leaf1:swp1"), link("gpu01:p1", "leaf2:swp1"),
		link("gpu02:p0", "leaf2:swp2"), link("gpu03:p0", "leaf1:swp3"),
	})
	if paths, _, _ := g.Paths(Endpoint{"gpu03", ""}, Endpoint{"gpu02", ""}); len(paths) != 0 {
		t.Errorf("routed through a host: %v", render(paths))
	}
	paths, _, _ := g.Paths(Endpoint{"gpu01", ""}, Endpoint{"gpu02", ""})
	if got := render(paths); len(got) != 1 || !strings.Contains(got[0], "gpu01[>p1] leaf2[swp1>swp2]") {
		t.Errorf("dual-homed: %v", got)
	}
	paths, _, _ = g.Paths(Endpoint{"gpu01", "p0"}, Endpoint{"gpu03", ""})
	if got := render(paths); len(got) != 1 || !strings.HasPrefix(got[0], "gpu01[>p0] leaf1") {
		t.Errorf("pinned netdev: %v", got)
	}
	if paths, _, _ := g.Paths(Endpoint{"gpu01", "p1"}, Endpoint{"gpu03", ""}); len(paths) != 0 {
		t.Errorf("p1 leads to leaf2, which has no way to gpu03: %v", render(paths))
	}
}

func TestMissingLinkMeansNoPath(t *testing.T) {
	g := NewGraph(devs([]string{"a", "b"}, []string{"leaf1", "leaf2"}), []Link{link("a:p", "leaf1:1"), link("b:p", "leaf2:1")})
	if paths, _, err := g.Paths(Endpoint{"a", ""}, Endpoint{"b", ""}); err != nil || len(paths) != 0 {
		t.Errorf("%v %v", paths, err)
	}
}

// clos builds a two-tier Clos: leaves x spines, hostsPerLeaf hosts on each leaf.
func clos(leaves, spines, hostsPerLeaf int) ([]*Device, []Link) {
	var ds []*Device
	var ls []Link
	for s := 0; s < spines; s++ {
		ds = append(ds, &Device{Name: fmt.Sprintf("spine%d", s), Role: RoleSwitch})
	}
	for l := 0; l < leaves; l++ {
		leaf := fmt.Sprintf("leaf%d", l)
		ds = append(ds, &Device{Name: leaf, Role: RoleSwitch})
		for s := 0; s < spines; s++ {
			ls = append(ls, link(fmt.Sprintf("%s:up%d", leaf, s), fmt.Sprintf("spine%d:down%d", s, l)))
		}
		for h := 0; h < hostsPerLeaf; h++ {
			host := fmt.Sprintf("h%d-%d", l, h)
			ds = append(ds, &Device{Name: host, Role: RoleHost})
			ls = append(ls, link(host+":p0", fmt.Sprintf("%s:host%d", leaf, h)))
		}
	}
	return ds, ls
}

func TestLargeClosPathCount(t *testing.T) {
	ds, ls := clos(150, 50, 12)
	if len(ds) != 2000 {
		t.Fatalf("%d devices", len(ds))
	}
	paths, _, err := NewGraph(ds, ls).Paths(Endpoint{"h0-0", ""}, Endpoint{"h149-11", ""})
	if err != nil || len(paths) != 50 {
		t.Fatalf("%d paths, %v", len(paths), err)
	}
}

// BenchmarkPathIn2000DeviceClos: one path query on a 2,000-device Clos (graph built once).
func BenchmarkPathIn2000DeviceClos(b *testing.B) {
	ds, ls := clos(150, 50, 12)
	g := NewGraph(ds, ls)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := g.Paths(Endpoint{"h0-0", ""}, Endpoint{"h149-11", ""}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGraphBuild2000: building the graph of a 2,000-device Clos.
func BenchmarkGraphBuild2000(b *testing.B) {
	ds, ls := clos(150, 50, 12)
	for b.Loop() {
		NewGraph(ds, ls)
	}
}

// A three-tier Clos: two pods of two leaves and two spines, both pods under two super-spines.
// Across pods every spine/super-spine/spine combination is an equal-cost path: 2x2x2 = 8.
func TestThreeTierClos(t *testing.T) {
	var ds []*Device
	var ls []Link
	sw := func(n string) { ds = append(ds, &Device{Name: n, Role: RoleSwitch}) }
	for s := 1; s <= 2; s++ {
		sw(fmt.Sprintf("super%d", s))
	}
	for p := 1; p <= 2; p++ {
		for s := 1; s <= 2; s++ {
			spine := fmt.Sprintf("p%d-spine%d", p, s)
			sw(spine)
			for u := 1; u <= 2; u++ {
				ls = append(ls, link(fmt.Sprintf("%s:up%d", spine, u), fmt.Sprintf("super%d:p%ds%d", u, p, s)))
			}
		}
		for l := 1; l <= 2; l++ {
			leaf := fmt.Sprintf("p%d-leaf%d", p, l)
			sw(leaf)
			for s := 1; s <= 2; s++ {
				ls = append(ls, link(fmt.Sprintf("%s:up%d", leaf, s), fmt.Sprintf("p%d-spine%d:down%d", p, s, l)))
			}
			host := fmt.Sprintf("p%d-h%d", p, l)
			ds = append(ds, &Device{Name: host, Role: RoleHost})
			ls = append(ls, link(host+":p0", leaf+":host"))
		}
	}
	g := NewGraph(ds, ls)
	paths, _, err := g.Paths(Endpoint{"p1-h1", ""}, Endpoint{"p2-h2", ""})
	if err != nil || len(paths) != 8 {
		t.Fatalf("%d paths, %v", len(paths), err)
	}
	for _, p := range paths {
		if len(p) != 7 || p[3].Device[:5] != "super" {
			t.Errorf("path %v", render([][]Hop{p}))
		}
	}
	// Within a pod the super-spines are never used: two paths, one per pod spine.
	if paths, _, _ := g.Paths(Endpoint{"p1-h1", ""}, Endpoint{"p1-h2", ""}); len(paths) != 2 || len(paths[0]) != 5 {
		t.Errorf("intra-pod: %v", render(paths))
	}
}

// A graph with a link cut finds the paths of the graph built without that link (the
// deadlock analysis cuts each failed link instead of rebuilding the graph).
func TestCutGraphMatchesRebuiltGraph(t *testing.T) {
	ds, ls := fabricOf(threeTier("leaf1:x1-leaf2:x1", "agg3:x2-agg4:x2")...)
	ls = append(ls, ls[len(ls)-1]) // a duplicate: cut with its twin
	whole := NewGraph(ds, ls)
	var hosts []Endpoint
	for _, d := range ds {
		if d.Role == RoleHost {
			hosts = append(hosts, Endpoint{Device: d.Name})
		}
	}
	compared := 0
	for i := range ls {
		var cut []int
		var rest []Link
		for j, l := range ls {
			if linkKey(l) == linkKey(ls[i]) {
				cut = append(cut, j)
			} else {
				rest = append(rest, l)
			}
		}
		rebuilt, g := NewGraph(ds, rest), whole.without(cut)
		for _, a := range hosts {
			for _, b := range hosts {
				if a == b {
					continue
				}
				want, wt, _ := rebuilt.Paths(a, b)
				got, gt, _ := g.Paths(a, b)
				if strings.Join(render(got), "\n") != strings.Join(render(want), "\n") || gt != wt {
					t.Fatalf("without %v, %v->%v: got\n%s\nwant\n%s", ls[i], a, b, strings.Join(render(got), "\n"), strings.Join(render(want), "\n"))
				}
				compared += len(want)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no path compared")
	}
}

// One search per destination answers every source as a search per pair would: pinned and
// unpinned netdevs at both ends, a source that is the destination or unknown, a switch as a
// source, and a graph with a link cut.
func TestPathsToOneDestinationMatchPerPairQueries(t *testing.T) {
	dual := devs([]string{"gpu01", "gpu02", "gpu03"}, []string{"leaf1", "leaf2", "spine1"})
	dualLinks := []Link{
		link("gpu01:p0", "leaf1:swp1"), link("gpu01:p1", "leaf2:swp1"),
		link("gpu02:p0", "leaf2:swp2"), link("gpu02:p1", "leaf1:swp2"), link("gpu03:p0", "leaf1:swp3"),
		link("leaf1:up", "spine1:d1"), link("leaf2:up", "spine1:d2"), link("leaf2:up2", "spine1:d3"),
	}
	tds, tls := fabricOf(threeTier("leaf1:x1-leaf2:x1", "agg3:x2-agg4:x2")...)
	graphs := map[string]*Graph{
		"dual-homed":  NewGraph(dual, dualLinks),
		"three-tier":  NewGraph(tds, tls),
		"without one": NewGraph(tds, tls).without([]int{len(tls) - 1}),
	}
	for name, g := range graphs {
		var eps []Endpoint
		for _, n := range g.names {
			eps = append(eps, Endpoint{Device: n})
		}
		for n, es := range g.adj {
			if g.host[n] {
				for _, e := range es {
					eps = append(eps, Endpoint{Device: g.names[n], Interface: e.local})
				}
			}
		}
		srcs := append(eps, Endpoint{Device: "nowhere"})
		compared, shared := 0, 0
		for _, b := range eps {
			shared += g.arcPathsTo(srcs, b, func(i int, got [][]int32, gotTrunc bool, gotErr error) {
				want, wantTrunc, wantErr := g.arcPaths(srcs[i], b)
				if fmt.Sprint(got, gotTrunc, gotErr) != fmt.Sprint(want, wantTrunc, wantErr) {
					t.Errorf("%s: %v -> %v: got %v %v %v, want %v %v %v", name, srcs[i], b, got, gotTrunc, gotErr, want, wantTrunc, wantErr)
				}
				compared += len(want)
			})
		}
		if compared == 0 || shared == 0 {
			t.Errorf("%s: %d paths compared, %d sources answered by a shared search", name, compared, shared)
		}
	}
}
