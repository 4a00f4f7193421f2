package topology

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fabricOf builds devices and links from "a:p-b:q" cables; a device named h* is a host.
func fabricOf(cables ...string) ([]*Device, []Link) {
	seen := map[string]bool{}
	var hosts, switches []string
	var links []Link
	for _, c := range cables {
		a, b, _ := strings.Cut(c, "-")
		links = append(links, link(a, b))
		for _, end := range []string{a, b} {
			d, _, _ := strings.Cut(end, ":")
			if seen[d] {
				continue
			}
			seen[d] = true
			if strings.HasPrefix(d, "h") {
				hosts = append(hosts, d)
			} else {
				switches = append(switches, d)
			}
		}
	}
	return devs(hosts, switches), links
}

func allLossless(PortRef) bool { return true }

func analyse(t *testing.T, lossless func(PortRef) bool, cables ...string) DeadlockAnalysis {
	t.Helper()
	ds, ls := fabricOf(cables...)
	return AnalyseDeadlock(DeadlockInput{Devices: ds, Links: ls, Lossless: lossless})
}

func ports(ps []PortRef) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, " > ")
}

func valleys(vs []Valley) []string {
	var out []string
	for _, v := range vs {
		s := v.From.String() + "->" + v.To.String() + " " + hopsText(v.Hops[1:len(v.Hops)-1])
		if v.Failed != nil {
			s = "[" + v.Failed.A.String() + "-" + v.Failed.B.String() + "] " + s
		}
		out = append(out, s)
	}
	return out
}

// twoTier is three leaves on two spines, one host per leaf.
var twoTier = []string{
	"h1:p0-leaf1:e1", "h2:p0-leaf2:e1", "h3:p0-leaf3:e1",
	"leaf1:u1-spine1:d1", "leaf1:u2-spine2:d1",
	"leaf2:u1-spine1:d2", "leaf2:u2-spine2:d2",
	"leaf3:u1-spine1:d3", "leaf3:u2-spine2:d3",
}

func TestTwoTierClosIsDeadlockFree(t *testing.T) {
	a := analyse(t, allLossless, twoTier...)
	if len(a.Cycles) > 0 || len(a.Valleys) > 0 || len(a.FailureValleys) > 0 || len(a.SameTier) > 0 {
		t.Fatalf("a Clos with up-down routing has no risk: %+v", a)
	}
	// 3 leaf pairs x 2 spines x 2 directions; every leaf-spine queue in both directions.
	if a.Pairs != 3 || a.Paths != 12 || a.Queues != 12 || a.LinksFailed != 6 || a.FailableLinks != 6 {
		t.Errorf("pairs %d paths %d queues %d failures %d/%d", a.Pairs, a.Paths, a.Queues, a.LinksFailed, a.FailableLinks)
	}
	if diff := cmp.Diff(map[string]int{"leaf1": 1, "leaf2": 1, "leaf3": 1, "spine1": 2, "spine2": 2}, a.Tiers); diff != "" {
		t.Errorf("tiers (-want +got):\n%s", diff)
	}
}

// ring is two leaf pairs joined by lossless leaf-to-leaf links, each leaf uplinked to one
// spine only: the equal-cost paths around the ring depend on each other in a circle.
var ring = []string{
	"h1:p0-leaf1:e1", "h2:p0-leaf2:e1", "h3:p0-leaf3:e1", "h4:p0-leaf4:e1",
	"leaf1:up-spine1:d1", "leaf3:up-spine1:d3",
	"leaf2:up-spine2:d2", "leaf4:up-spine2:d4",
	"leaf1:peer-leaf2:peer", "leaf3:peer-leaf4:peer",
}

func TestLosslessLeafToLeafLinksCloseACycle(t *testing.T) {
	a := analyse(t, allLossless, ring...)
	var got []string
	for _, c := range a.Cycles {
		got = append(got, fmt.Sprintf("%d queues: %s", len(c.Queues), ports(c.Cycle)))
	}
	want := []string{
		// One component per direction around the ring.
		"6 queues: leaf1:peer > leaf2:up > spine2:d4 > leaf4:peer > leaf3:up > spine1:d1",
		"6 queues: leaf1:up > spine1:d3 > leaf3:peer > leaf4:up > spine2:d2 > leaf2:peer",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	var same []string
	for _, l := range a.SameTier {
		same = append(same, l.A.String()+"-"+l.B.String())
	}
	if diff := cmp.Diff([]string{"leaf1:peer-leaf2:peer", "leaf3:peer-leaf4:peer"}, same); diff != "" {
		t.Errorf("same-tier links (-want +got):\n%s", diff)
	}
	if len(a.Valleys) > 0 {
		t.Errorf("sideways is not down-then-up: %v", valleys(a.Valleys))
	}

	// The same cabling without PFC on the leaf-to-leaf links breaks every chain at them.
	lossy := func(p PortRef) bool { return p.Interface != "peer" }
	if b := analyse(t, lossy, ring...); len(b.Cycles) > 0 || len(b.SameTier) > 0 {
		t.Errorf("lossy peer links cannot close a cycle: %+v %+v", b.Cycles, b.SameTier)
	}
}

func TestValleyOfTheFabricAsItIs(t *testing.T) {
	// leaf2 reaches spine2 only, leaf3 spine1 only: their traffic bounces through leaf1.
	a := analyse(t, allLossless,
		"h1:p0-leaf1:e1", "h2:p0-leaf2:e1", "h3:p0-leaf3:e1",
		"leaf1:u1-spine1:d1", "leaf1:u2-spine2:d1", "leaf2:u2-spine2:d2", "leaf3:u1-spine1:d3")
	want := []string{"h2:p0->h3:p0 leaf2[e1>u2] spine2[d2>d1] leaf1[u2>u1] spine1[d1>d3] leaf3[u1>e1]"}
	if diff := cmp.Diff(want, valleys(a.Valleys)); diff != "" {
		t.Errorf("valleys (-want +got):\n%s", diff)
	}
	// A valley that exists now is not reported again as one a failure opens.
	if len(a.FailureValleys) > 0 {
		t.Errorf("failure valleys: %v", valleys(a.FailureValleys))
	}
}

// threeTier is two pods of two leaves and two spines, spine N of each pod on super-spine N.
func threeTier(extra ...string) []string {
	return append([]string{
		"h1:p0-leaf1:e1", "h2:p0-leaf2:e1", "h3:p0-leaf3:e1", "h4:p0-leaf4:e1",
		"leaf1:u1-agg1:d1", "leaf1:u2-agg2:d1", "leaf2:u1-agg1:d2", "leaf2:u2-agg2:d2",
		"leaf3:u2-agg4:d3", "leaf4:u1-agg3:d4", "leaf4:u2-agg4:d4",
		"agg1:up-super1:d1", "agg3:up-super1:d3", "agg2:up-super2:d2", "agg4:up-super2:d4",
	}, extra...)
}

func TestThreeTierValleyFreeOnlyWhileEveryLinkIsUp(t *testing.T) {
	// leaf3 is single-homed to agg4: when the only plane toward it loses a link, pod 1
	// reaches it down through pod 2's other leaf and up again.
	a := analyse(t, allLossless, threeTier()...)
	if len(a.Cycles) > 0 || len(a.Valleys) > 0 || len(a.SameTier) > 0 {
		t.Fatalf("intact fabric: cycles %v valleys %v same-tier %v", a.Cycles, valleys(a.Valleys), a.SameTier)
	}
	if a.Tiers["leaf3"] != 1 || a.Tiers["agg4"] != 2 || a.Tiers["super2"] != 3 {
		t.Errorf("tiers %v", a.Tiers)
	}
	failed := map[string]bool{}
	for _, v := range a.FailureValleys {
		failed[v.Failed.A.String()+"-"+v.Failed.B.String()] = true
	}
	want := []string{"agg2:up-super2:d2", "agg4:up-super2:d4", "leaf1:u2-agg2:d1", "leaf2:u2-agg2:d2", "leaf4:u2-agg4:d4"}
	if diff := cmp.Diff(want, slices.Sorted(maps.Keys(failed))); diff != "" {
		t.Errorf("failures that open a valley (-want +got):\n%s", diff)
	}
	wantL1 := []string{
		"[leaf1:u2-agg2:d1] h1:p0->h3:p0 leaf1[e1>u1] agg1[d1>d2] leaf2[u1>u2] agg2[d2>up] super2[d2>d4] agg4[up>d3] leaf3[u2>e1]",
		"[leaf1:u2-agg2:d1] h1:p0->h3:p0 leaf1[e1>u1] agg1[d1>up] super1[d1>d3] agg3[up>d4] leaf4[u1>u2] agg4[d4>d3] leaf3[u2>e1]",
	}
	var gotL1 []string
	for _, v := range valleys(a.FailureValleys) {
		if strings.HasPrefix(v, "[leaf1:u2-agg2:d1]") {
			gotL1 = append(gotL1, v)
		}
	}
	if diff := cmp.Diff(wantL1, gotL1); diff != "" {
		t.Errorf("valleys after leaf1-agg2 fails (-want +got):\n%s", diff)
	}
	if a.LinksFailed != a.FailableLinks || a.FailableLinks != 11 {
		t.Errorf("failures analysed %d of %d", a.LinksFailed, a.FailableLinks)
	}
}

func TestThreeTierValleyFreeUnderAnySingleFailure(t *testing.T) {
	a := analyse(t, allLossless, threeTier("leaf3:u1-agg3:d3")...)
	if len(a.Cycles) > 0 || len(a.Valleys) > 0 || len(a.FailureValleys) > 0 {
		t.Fatalf("cycles %v valleys %v after failures %v", a.Cycles, valleys(a.Valleys), valleys(a.FailureValleys))
	}
	if a.LinksFailed != 12 || a.FailableLinks != 12 {
		t.Errorf("failures analysed %d of %d", a.LinksFailed, a.FailableLinks)
	}
}

func TestDeadlockAnalysisIsStableAndBounded(t *testing.T) {
	cables := threeTier()
	first := analyse(t, allLossless, cables...)
	reversed := slices.Clone(cables)
	slices.Reverse(reversed)
	if diff := cmp.Diff(first, analyse(t, allLossless, reversed...)); diff != "" {
		t.Errorf("the order links come in changes the result:\n%s", diff)
	}
	// 6 leaf pairs use 6 queries; what is left covers some failures, not all.
	ds, ls := fabricOf(cables...)
	cut := AnalyseDeadlock(DeadlockInput{Devices: ds, Links: ls, Lossless: allLossless, MaxQueries: 9})
	if cut.Pairs != 6 || cut.LinksFailed == 0 || cut.LinksFailed >= cut.FailableLinks {
		t.Errorf("bounded run: pairs %d, failures %d of %d", cut.Pairs, cut.LinksFailed, cut.FailableLinks)
	}
	tiny := AnalyseDeadlock(DeadlockInput{Devices: ds, Links: ls, Lossless: allLossless, MaxQueries: 2})
	if tiny.Pairs != 2 || tiny.PairsTotal != 6 || tiny.LinksFailed != 0 {
		t.Errorf("a budget below the pairs: %d of %d pairs, %d failures", tiny.Pairs, tiny.PairsTotal, tiny.LinksFailed)
	}
}

func TestOneEndpointPerLeafAndUnreachedSwitches(t *testing.T) {
	// h1 and h2 share leaf1 (h2's port sorts after h1's); h3 is dual-homed; spare has no host.
	a := analyse(t, allLossless, "h1:p0-leaf1:e1", "h2:p0-leaf1:e2", "h3:p0-leaf2:e1", "h3:p1-leaf1:e3",
		"leaf1:u1-spine1:d1", "leaf2:u1-spine1:d2", "island:x-island2:y")
	var eps []string
	for _, e := range a.Endpoints {
		eps = append(eps, e.String())
	}
	if diff := cmp.Diff([]string{"h1:p0", "h3:p0"}, eps); diff != "" {
		t.Errorf("endpoints (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"island", "island2"}, a.Untiered); diff != "" {
		t.Errorf("untiered (-want +got):\n%s", diff)
	}
}

func TestRailTwinLeavesArePairedThroughTwoHosts(t *testing.T) {
	// h1 and h2 are each dual-homed to leaf1 and leaf2: the leaves' first ports are both h1's.
	a := analyse(t, allLossless, "h1:p0-leaf1:e1", "h1:p1-leaf2:e1", "h2:p0-leaf1:e2", "h2:p1-leaf2:e2",
		"leaf1:u1-spine1:d1", "leaf2:u1-spine1:d2")
	if a.Pairs != 1 || a.Paths != 2 || a.Queues != 4 {
		t.Errorf("pairs %d paths %d queues %d", a.Pairs, a.Paths, a.Queues)
	}
}

// The deadlock analysis of the scale benchmark's fabrics (hosts=960,leaves=32,spines=8 and
// hosts=9680,leaves=256,spines=64), every port lossless: the leaf pairs, then every
// single-link failure the query budget allows.
func BenchmarkAnalyseDeadlock(b *testing.B) {
	for _, size := range []struct{ leaves, spines, hosts int }{{32, 8, 30}, {256, 64, 38}} {
		ds, ls := clos(size.leaves, size.spines, size.hosts)
		b.Run(fmt.Sprintf("devices=%d", len(ds)), func(b *testing.B) {
			for b.Loop() {
				if a := AnalyseDeadlock(DeadlockInput{Devices: ds, Links: ls, Lossless: allLossless}); a.Pairs == 0 {
					b.Fatal("no pair analysed")
				}
			}
		})
	}
}

// Links of one key (each cable listed again the other way, from another source) fail in the
// order sorting the links by compareLinks gives them, as they did before the analysis sorted
// link indexes: past twelve links that sort is not stable.
func TestFailedTwinLinksKeepTheirOrder(t *testing.T) {
	ds, ls := fabricOf(threeTier()...)
	for _, l := range slices.Clone(ls) {
		ls = append(ls, Link{A: l.B, B: l.A, Source: "lldp"})
	}
	a := AnalyseDeadlock(DeadlockInput{Devices: ds, Links: ls, Lossless: allLossless})
	var failable []Link
	for _, l := range ls {
		if !strings.HasPrefix(l.A.Device, "h") && !strings.HasPrefix(l.B.Device, "h") {
			failable = append(failable, l)
		}
	}
	if len(failable) <= 12 {
		t.Fatalf("%d failable links: too few for the sort to be unstable", len(failable))
	}
	slices.SortFunc(failable, compareLinks)
	at := map[Link]int{}
	for i, l := range failable {
		at[l] = i
	}
	last, twins := -1, 0
	for _, v := range a.FailureValleys {
		i, ok := at[*v.Failed]
		if !ok || i < last {
			t.Fatalf("valley after %v failed comes after that of %v", *v.Failed, failable[last])
		}
		if i != last && last >= 0 && linkKey(failable[i]) == linkKey(failable[last]) {
			twins++
		}
		last = i
	}
	if twins == 0 {
		t.Fatal("no twin links both opened a valley: the order between them was not tested")
	}
}

// Endpoints sort as their texts do, whatever bytes their names hold around the colon.
func TestCompareEndpointTextsIsStringOrder(t *testing.T) {
	names := []string{"", "a", "a:", "a:b", "a-b", "a:b:c", "ab", "a0", "a9", "b", ":", "::", "a;", "é", "a\x00"}
	var eps []Endpoint
	for _, d := range names {
		for _, i := range names {
			eps = append(eps, Endpoint{Device: d, Interface: i})
		}
	}
	for _, x := range eps {
		for _, y := range eps {
			if got, want := compareEndpointTexts(x, y), strings.Compare(x.String(), y.String()); got != want {
				t.Fatalf("compareEndpointTexts(%q, %q) = %d, strings.Compare of their texts %d", x, y, got, want)
			}
		}
	}
}
