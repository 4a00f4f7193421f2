package lab

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

func TestParseGenerateRails(t *testing.T) {
	g, err := ParseGenerate("hosts=4,leaves=8,spines=2,rails=8")
	if err != nil || g != (Generate{Hosts: 4, Leaves: 8, Spines: 2, Rails: 8}) {
		t.Fatalf("ParseGenerate = %+v, %v", g, err)
	}
	if again, err := ParseGenerate(g.String()); err != nil || again != g {
		t.Errorf("round trip of %s = %+v, %v", g, again, err)
	}
	// rails=1 is the default and keeps the --generate form (and the inventory) as without it.
	if g, err := ParseGenerate("hosts=6,leaves=3,spines=2,rails=1"); err != nil || g.String() != "hosts=6,leaves=3,spines=2" {
		t.Errorf("rails=1: %q, %v", g, err)
	}
	for in, want := range map[string]string{
		"hosts=4,leaves=6,spines=2,rails=4": "leaves=6 is not a multiple of rails=4",
		"hosts=4,leaves=8,spines=2,rails=9": "rails=9 is out of range 1..8",
		"hosts=4,leaves=8,spines=2,rails=0": "rails=0 is out of range 1..8",
	} {
		if _, err := ParseGenerate(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGenerate(%q) = %v, want %q", in, err, want)
		}
	}
	if err := (Generate{Hosts: 4, Leaves: 6, Spines: 2, Rails: 4}).Validate(); err == nil {
		t.Error("Validate accepts leaves that do not split into rail groups")
	}
}

// Rail r of every host is on leaf group r; each group's leaves take the hosts in blocks.
func TestRailFabricIsRailOptimized(t *testing.T) {
	g := Generate{Hosts: 6, Leaves: 4, Spines: 2, Rails: 2}
	got := map[string]string{}
	for _, c := range g.fabric().cables {
		if strings.HasPrefix(c[0].device, "gpu") {
			got[c[0].device+":"+c[0].port] = c[1].device
		}
	}
	want := map[string]string{}
	for h := 1; h <= 6; h++ {
		block := (h - 1) / 3 // 3 hosts per leaf: 6 hosts over 2 leaves per rail
		want[g.hostName(h)+":ens1np0"] = []string{"leaf1", "leaf2"}[block]
		want[g.hostName(h)+":ens2np0"] = []string{"leaf3", "leaf4"}[block]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("host cabling (-want +got):\n%s", diff)
	}
	wantPaths := [][2]string{{"gpu01:ens1np0", "gpu06:ens1np0"}, {"gpu06:ens2np0", "gpu01:ens1np0"}}
	if diff := cmp.Diff(wantPaths, g.Paths()); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][2]string{{"gpu01:ens1np0", "leaf1:Ethernet0"}, {"gpu01:ens2np0", "leaf3:Ethernet1"}}, g.DeclaredLinks()); diff != "" {
		t.Errorf("declared links (-want +got):\n%s", diff)
	}
}

// An 8-rail host: one 400G NIC per rail, each in its own /31, all listed in NCCL_IB_HCA; the
// leaf ports facing them run at 400G, the uplinks keep their speed.
func TestRailHostsAnd400GPorts(t *testing.T) {
	devs := Generate{Hosts: 4, Leaves: 8, Spines: 2, Rails: 8}.build(0)
	h := devs[3].host
	if len(h.RDMA) != 8 || h.RDMA[7].Name != "mlx5_7" || h.RDMA[7].Ports[0].Netdev != "ens8np0" {
		t.Fatalf("gpu04 RDMA devices %+v", h.RDMA)
	}
	if a := h.Netdev("ens3np0").Addrs[0].String(); a != "10.102.0.7/31" {
		t.Errorf("gpu04 rail 2 address %s", a)
	}
	if !strings.Contains(h.Files["/etc/nccl.conf"], "NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7\n") {
		t.Errorf("nccl.conf:\n%s", h.Files["/etc/nccl.conf"])
	}
	speeds := map[string]int{}
	for _, d := range devs {
		if d.name == "leaf1" {
			for _, p := range d.sw.Ports {
				speeds[p.Name] = p.Speed
			}
		}
	}
	// leaf1 (SONiC): four hosts' rail 0, then two uplinks.
	want := map[string]int{"Ethernet0": 400, "Ethernet4": 400, "Ethernet8": 400, "Ethernet12": 400, "Ethernet16": 100, "Ethernet20": 100}
	if diff := cmp.Diff(want, speeds); diff != "" {
		t.Errorf("leaf1 port speeds (-want +got):\n%s", diff)
	}
	if _, p := h.Port(linuxhost.RailNetdev(0)); p.Width*int(p.LaneGbps) != 400 {
		t.Errorf("rail port %dx%g", p.Width, p.LaneGbps)
	}
}
