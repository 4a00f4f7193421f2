package rdmaemucheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Stepping perftest's --flow_label steps the UDP source port, so the 5-tuple hash reaches
// both spines; a first switch that hashes on addresses only sends every label one way.
func TestFlowLabelStepsTheECMPMember(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	a, b := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}
	seen := map[string]bool{}
	for fl := uint32(1); fl <= 16; fl++ {
		h1, err1 := f.e.RouteFlowLabel(a, b, fl)
		h2, _ := f.e.RouteFlowLabel(a, b, fl)
		if err1 != nil || len(h1) != 3 || h1[1] != h2[1] {
			t.Fatalf("label %d: %v %v %v", fl, h1, h2, err1)
		}
		seen[h1[1].Device] = true
	}
	if len(seen) != 2 {
		t.Errorf("16 labels reached %v, want both spines", seen)
	}
	first, _ := f.e.RouteFlowLabel(a, b, 1)
	f.switches[first[0].Device].Update(func(s *switchstate.Switch) { s.ECMPHashIPOnly = true })
	only := map[string]bool{}
	for fl := uint32(1); fl <= 16; fl++ {
		h, _ := f.e.RouteFlowLabel(a, b, fl)
		only[h[1].Device] = true
	}
	if len(only) != 1 {
		t.Errorf("an address-only hash still spread the labels: %v", only)
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }

// A run with --flow_label takes RouteFlowLabel's member: the octets and packets of exactly
// that member's switch ports rise, in and out, by the same amount.
func TestFlowLabelRunCountsTheMembersOctets(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	a, b := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}
	for _, fl := range []uint32{3, 4} {
		hops, err := f.e.RouteFlowLabel(a, b, fl)
		if err != nil {
			t.Fatal(err)
		}
		before := f.snapshot()
		flag := fmt.Sprintf(" --flow_label %d", fl)
		srv := bwCmd("mlx5_0", 3, 18515, 10, "") + flag
		cli, _ := f.transfer(t, "gpu03", srv, "gpu01", srv+" 10.1.0.3", 18515)
		after := f.snapshot()
		if cli.exit != 0 {
			t.Fatalf("label %d: exit %d %s", fl, cli.exit, cli.err)
		}
		var want []string
		for _, h := range hops {
			want = append(want, h.Device+":"+h.In+" "+switchstate.InOctets, h.Device+":"+h.Out+" "+switchstate.OutOctets)
		}
		got := rising(before.sw, after.sw, func(n string) bool { return n == switchstate.InOctets || n == switchstate.OutOctets })
		if strings.Join(sorted(got), ",") != strings.Join(sorted(want), ",") {
			t.Errorf("label %d: octets rose on %v, want %v", fl, got, want)
		}
		in := delta(t, before.sw, after.sw, rdmaemu.Endpoint{Device: hops[0].Device, Port: hops[0].In}, switchstate.InOctets)
		out := delta(t, before.sw, after.sw, rdmaemu.Endpoint{Device: hops[2].Device, Port: hops[2].Out}, switchstate.OutOctets)
		if in <= 1<<30 || in != out {
			t.Errorf("label %d: %d octets in at the first leaf, %d out at the last", fl, in, out)
		}
	}
}
