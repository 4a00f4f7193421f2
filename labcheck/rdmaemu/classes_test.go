package rdmaemucheck

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/rdmaemu"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// OFED's global traffic_class wins over --tclass: tclass 0 puts RoCE on priority 0, which no
// port pauses. The lossy cable nearest the receiver drops (the leaf's egress queue 0), and no
// pause is counted anywhere.
func TestGlobalTrafficClassOverridesTClass(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	f.hosts["gpu01"].Update(func(h *linuxhost.Host) {
		_, p := h.Port(linuxhost.Port0)
		p.TrafficClass = "Global tclass=0"
	})
	before := f.snapshot()
	cli, _ := f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18515, 10, ""), "gpu01", bwCmd("mlx5_0", 3, 18515, 10, "10.1.0.3"), 18515)
	after := f.snapshot()
	if r, err := perftest.ParseBW(cli.out); err != nil || r.AvgGbps > 25 {
		t.Fatalf("priority 0 flow: %v %+v", err, cli)
	}
	drops := rising(before.sw, after.sw, func(n string) bool { return strings.Contains(n, "drop") || strings.Contains(n, "discard") })
	slices.Sort(drops)
	if !slices.Equal(drops, []string{"leafB:swp1 queue0_drop_bytes", "leafB:swp1 queue0_drops"}) {
		t.Errorf("drops %q", drops)
	}
	if d := delta(t, before.stats, after.stats, rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, "tx_prio0_packets"); d < 1_000_000 {
		t.Errorf("tx_prio0_packets +%d", d)
	}
	if p := rising(before.sw, after.sw, func(n string) bool { return strings.HasPrefix(n, "pfc_") }); len(p) > 0 {
		t.Errorf("pauses %q", p)
	}
}

// A switch port that does not send PFC for the class: the frames it cannot hold back overflow
// its ingress priority group.
func TestIngressWithoutPFC(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	for _, name := range []string{"Ethernet48", "Ethernet52"} { // leafA's uplinks, both members
		f.switches["leafA"].Port(name).PFCTX[3] = false
	}
	before := f.snapshot()
	cli, _ := f.transfer(t, "gpu01", bwCmd("mlx5_0", 3, 18515, 10, ""), "gpu03", bwCmd("mlx5_0", 3, 18515, 10, "10.1.0.1"), 18515)
	after := f.snapshot()
	if r, err := perftest.ParseBW(cli.out); err != nil || r.AvgGbps > 25 {
		t.Fatalf("%v %+v", err, cli)
	}
	drops := rising(before.sw, after.sw, func(n string) bool { return strings.Contains(n, "drop") || strings.Contains(n, "discard") })
	if len(drops) != 1 || !strings.HasPrefix(drops[0], "leafA:Ethernet") || !strings.HasSuffix(drops[0], " pg3_rx_discard_bytes") {
		t.Errorf("drops %q", drops)
	}
	// Only the cable from leafA to the receiver, after the lossy one, counts pauses.
	pauses := rising(before.sw, after.sw, func(n string) bool { return strings.HasPrefix(n, "pfc_") })
	slices.Sort(pauses)
	if !slices.Equal(pauses, []string{"leafA:Ethernet0 pfc_rx_pause_duration_prio3", "leafA:Ethernet0 pfc_rx_pause_prio3"}) ||
		delta(t, before.stats, after.stats, rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, "tx_prio3_pause") < 1 ||
		delta(t, before.stats, after.stats, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}, "rx_prio3_pause") != 0 {
		t.Errorf("pauses on %q", pauses)
	}
}

// A client under sudo (an inventory with sudo: true) runs like any other; GIDs of different
// IP families fail perftest's GID type check on both sides.
func TestSudoAndGIDFamilies(t *testing.T) {
	// The default set-up grace: with none, the server's scaled 200 ms timeout could expire on
	// a loaded machine before the client connects, and this test is not about timeouts.
	f := newTestFabric(t, fast, 0)
	cli, _ := f.transfer(t, "gpu03", "sudo -n "+bwCmd("mlx5_0", 3, 18515, 5, ""), "gpu01", "sudo -n "+bwCmd("mlx5_0", 3, 18515, 5, "10.1.0.3"), 18515)
	if _, err := perftest.ParseBW(cli.out); err != nil || cli.exit != 0 {
		t.Errorf("sudo: %v %+v", err, cli)
	}
	f.hosts["gpu01"].Update(func(h *linuxhost.Host) { h.AddAddr(linuxhost.Port0, "2001:db8:1::1/64") }) // index 5: IPv6 v2
	cli, srv := f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18516, 5, ""), "gpu01", bwCmd("mlx5_0", 5, 18516, 5, "10.1.0.3"), 18516)
	for _, r := range []result{cli, srv} {
		if !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrBadGID) || !strings.Contains(r.err, "Incompatibility issue with GID types") {
			t.Errorf("IPv6 GID against IPv4: %+v", r)
		}
	}
}

func TestNewRefusesBadFabrics(t *testing.T) {
	h := linuxhost.NewGPUHost("gpu01", 1)
	a, b, c := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "leaf", Port: "e1"}, rdmaemu.Endpoint{Device: "leaf", Port: "e2"}
	if _, err := rdmaemu.New(rdmaemu.Config{Hosts: []*linuxhost.Host{h}, Cables: []rdmaemu.Cable{{a, b}, {a, c}}}); err == nil {
		t.Error("a port cabled twice was accepted")
	}
	if _, err := rdmaemu.New(rdmaemu.Config{Hosts: []*linuxhost.Host{h, h}}); err == nil {
		t.Error("a host named twice was accepted")
	}
}
