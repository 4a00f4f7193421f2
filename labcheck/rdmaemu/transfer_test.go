package rdmaemucheck

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/lab/rdmaemu"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// fast runs -D 10 in 100 ms: quick, yet the emulated timeout (duration plus slack, scaled too)
// leaves a loaded machine time to start the client.
const fast = 0.01

// A healthy pair: both sides print perftest's tables, the client's parses with ParseBW at
// about 96.5% of 100 Gb/s, traffic and PFC pauses move on exactly the member the flow takes,
// and nothing drops.
func TestHealthyPairOverExec(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	before := f.snapshot()
	cli, srv := f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18515, 10, ""), "gpu01", bwCmd("mlx5_0", 3, 18515, 10, "10.1.0.3"), 18515)
	after := f.snapshot()
	for side, r := range map[string]result{"client": cli, "server": srv} {
		if r.exit != 0 || r.err != "" || perftest.Diagnose(r.out, r.err, r.exit) != nil {
			t.Fatalf("%s: exit %d stderr %q\n%s", side, r.exit, r.err, r.out)
		}
		res, err := perftest.ParseBW(r.out)
		if err != nil {
			t.Fatalf("%s output does not parse: %v\n%s", side, err, r.out)
		}
		if res.AvgGbps < 96 || res.AvgGbps > 97 || res.PeakGbps != 0 || res.GIDIndex != 3 || res.MTU != 4096 ||
			res.LinkType != "Ethernet" || res.Device != "mlx5_0" || res.Unit != "Gb/sec" || len(res.Rows) != 1 {
			t.Errorf("%s result %+v", side, res)
		}
		if !strings.Contains(r.out, " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:01:00:01\n") ||
			!strings.Contains(r.out, " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:01:00:03\n") {
			t.Errorf("%s: GID lines of 10.1.0.1 and 10.1.0.3 missing:\n%s", side, r.out)
		}
	}
	if !strings.HasPrefix(srv.out, " WARNING: BW peak won't be measured in this run.\n"+"\n************************************\n* Waiting for client to connect... *\n************************************\n") || strings.Contains(srv.out, "TX depth") || !strings.Contains(cli.out, " TX depth        : 128\n") {
		t.Errorf("server banner / TX depth lines:\n%s\n%s", srv.out, cli.out)
	}
	c, _ := perftest.ParseBW(cli.out)
	s, _ := perftest.ParseBW(srv.out)
	if c.Rows[0] != s.Rows[0] {
		t.Errorf("server prints the client's report: %+v vs %+v", s.Rows[0], c.Rows[0])
	}

	hops, err := f.e.Route(rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}, 18515)
	if err != nil || len(hops) != 3 || hops[0].Device != "leafA" || hops[2] != (rdmaemu.Hop{Device: "leafB", In: hops[2].In, Out: "swp1"}) {
		t.Fatalf("route %+v %v", hops, err)
	}
	var onPath []string
	for _, h := range hops {
		onPath = append(onPath, h.Device+":"+h.Out+" queue3_tx_packets")
	}
	got := rising(before.sw, after.sw, func(n string) bool { return n == "queue3_tx_packets" })
	sort.Strings(got)
	sort.Strings(onPath)
	if !slices.Equal(got, onPath) {
		t.Errorf("queue 3 carried traffic on %q, want the route's egress ports %q", got, onPath)
	}
	if d := rising(before.sw, after.sw, func(n string) bool { return strings.Contains(n, "drop") || strings.Contains(n, "discard") }); len(d) > 0 {
		t.Errorf("drops on a lossless path: %q", d)
	}
	if d := rising(before.hw, after.hw, func(n string) bool {
		return slices.Contains([]string{"out_of_sequence", "packet_seq_err", "local_ack_timeout_err", "roce_adp_retrans", "duplicate_request"}, n)
	}); len(d) > 0 {
		t.Errorf("retransmissions on a lossless path: %q", d)
	}
	// PFC works on every cable: pauses on each switch port of the flow, small numbers.
	for _, h := range hops {
		in := delta(t, before.sw, after.sw, rdmaemu.Endpoint{Device: h.Device, Port: h.In}, "pfc_tx_pause_prio3")
		out := delta(t, before.sw, after.sw, rdmaemu.Endpoint{Device: h.Device, Port: h.Out}, "pfc_rx_pause_prio3")
		if in < 1 || out < 1 || in > 1000 || out > 1000 {
			t.Errorf("%s PFC pauses tx %d (in %s) rx %d (out %s)", h.Device, in, h.In, out, h.Out)
		}
	}
	snd, rcv := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}
	tx := delta(t, before.stats, after.stats, snd, "tx_prio3_packets")
	rx := delta(t, before.stats, after.stats, rcv, "rx_prio3_packets")
	// 96.5 Gb/s for 10 s in 4154-byte frames: about 29 million packets.
	if tx < 25_000_000 || tx > 32_000_000 || rx != tx {
		t.Errorf("tx_prio3_packets +%d, rx_prio3_packets +%d", tx, rx)
	}
	if delta(t, before.stats, after.stats, rcv, "tx_prio3_pause") < 1 || delta(t, before.stats, after.stats, snd, "rx_prio3_pause") < 1 {
		t.Error("host PFC pause counters did not move")
	}
	if delta(t, before.hw, after.hw, rcv, "np_ecn_marked_roce_packets") < 1 || delta(t, before.hw, after.hw, rcv, "np_cnp_sent") < 1 ||
		delta(t, before.hw, after.hw, snd, "rp_cnp_handled") < 1 {
		t.Error("DCQCN counters did not move")
	}
	if r := f.exec(t.Context(), "gpu03", "ss -Htln sport = :18515"); r.out != "" || r.exit != 0 {
		t.Errorf("ss after the run: %+v", r)
	}
}

// PFC off on the leaf port toward the receiver: low bandwidth, thousands of queue-3 drops on
// exactly that port, no pause counted on the path, retransmission counters on both hosts.
func TestLossyHop(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	p := f.switches["leafB"].Port("swp1")
	p.PFCRX, p.PFCTX = [8]bool{}, [8]bool{}
	before := f.snapshot()
	cli, _ := f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 20000, 10, ""), "gpu01", bwCmd("mlx5_0", 3, 20000, 10, "10.1.0.3"), 20000)
	after := f.snapshot()
	res, err := perftest.ParseBW(cli.out)
	if err != nil || cli.exit != 0 {
		t.Fatalf("%v exit %d\n%s%s", err, cli.exit, cli.out, cli.err)
	}
	if res.AvgGbps < 15 || res.AvgGbps > 25 {
		t.Errorf("lossy path at %.2f Gb/s, want 15-25", res.AvgGbps)
	}
	drops := rising(before.sw, after.sw, func(n string) bool { return strings.Contains(n, "drop") || strings.Contains(n, "discard") })
	sort.Strings(drops)
	if want := []string{"leafB:swp1 queue3_drop_bytes", "leafB:swp1 queue3_drops"}; !slices.Equal(drops, want) {
		t.Errorf("drops on %q, want %q", drops, want)
	}
	if d := delta(t, before.sw, after.sw, rdmaemu.Endpoint{Device: "leafB", Port: "swp1"}, "queue3_drops"); d < 1000 {
		t.Errorf("queue3_drops +%d, want thousands", d)
	}
	if p := rising(before.sw, after.sw, func(n string) bool { return strings.HasPrefix(n, "pfc_") }); len(p) > 0 {
		t.Errorf("PFC pauses counted on a path whose last cable has no PFC: %q", p)
	}
	snd, rcv := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu03", Port: linuxhost.Port0}
	for _, c := range []struct {
		at   rdmaemu.Endpoint
		name string
	}{{rcv, "out_of_sequence"}, {rcv, "duplicate_request"}, {snd, "packet_seq_err"}, {snd, "local_ack_timeout_err"}, {snd, "roce_adp_retrans"}} {
		if delta(t, before.hw, after.hw, c.at, c.name) < 1 {
			t.Errorf("%s %s did not rise", c.at, c.name)
		}
	}
	if d := delta(t, before.hw, after.hw, snd, "out_of_sequence"); d != 0 {
		t.Errorf("the sender's out_of_sequence rose by %d", d)
	}
}

// A lossy latency run keeps its median but not its tail; a lossless one is about 2.1/3.4 us.
func TestLatency(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	cli, srv := f.transfer(t, "gpu03", latCmd("mlx5_0", 3, 18600, ""), "gpu01", latCmd("mlx5_0", 3, 18600, "10.1.0.3"), 18600)
	good, err := perftest.ParseLat(cli.out)
	if err != nil || cli.exit != 0 || srv.exit != 0 {
		t.Fatalf("%v\n%s%s", err, cli.out, cli.err)
	}
	if good.TypicalUS < 2.0 || good.TypicalUS > 2.3 || good.P99US < 3.1 || good.P99US > 3.8 || good.Iterations != 10000 || good.Bytes != 64 {
		t.Errorf("lossless latency %+v", good)
	}
	if s, err := perftest.ParseLat(srv.out); err != nil || s != good {
		t.Errorf("server latency %+v %v", s, err)
	}
	p := f.switches["spine1"].Port("Ethernet1/2")
	q := f.switches["spine2"].Port("Ethernet2")
	p.PFCRX[3], q.PFCRX[3] = false, false // both members toward leafB
	cli, _ = f.transfer(t, "gpu03", latCmd("mlx5_0", 3, 18601, ""), "gpu01", latCmd("mlx5_0", 3, 18601, "10.1.0.3"), 18601)
	bad, err := perftest.ParseLat(cli.out)
	if err != nil {
		t.Fatal(err)
	}
	if bad.P99US < 30 || bad.TypicalUS > 3 || bad.MaxUS < 1000 {
		t.Errorf("lossy latency %+v", bad)
	}
}

// The perftest failures Diagnose must recognise, each from the emulated fabric's state.
func TestFailuresDiagnose(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	ctx := t.Context()

	// No server listening.
	r := f.exec(ctx, "gpu01", bwCmd("mlx5_0", 3, 18515, 5, "10.1.0.3"))
	if err := perftest.Diagnose(r.out, r.err, r.exit); !errors.Is(err, perftest.ErrConnect) ||
		r.err != "Couldn't connect to 10.1.0.3:18515\n Unable to init the socket connection\n" {
		t.Errorf("no listener: %v %+v", err, r)
	}
	// An address no host owns.
	if r := f.exec(ctx, "gpu01", bwCmd("mlx5_0", 3, 18515, 5, "10.9.9.9")); !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrConnect) {
		t.Errorf("unknown address: %+v", r)
	}
	// Start-up checks.
	for _, c := range []struct {
		cmd  string
		kind error
	}{
		{bwCmd("mlx5_7", 3, 18515, 5, ""), perftest.ErrNoDevice},
		{strings.Replace(bwCmd("mlx5_0", 3, 18515, 5, ""), "-x 3", "-x -1", 1), perftest.ErrBadGID},
		{strings.Replace(bwCmd("mlx5_0", 3, 18515, 5, ""), "-x 3", "-x 65", 1), perftest.ErrBadGID},
		{strings.Replace(bwCmd("mlx5_0", 3, 18515, 5, ""), "-F", "--frobnicate", 1), perftest.ErrUsage},
	} {
		r := f.exec(ctx, "gpu02", c.cmd)
		if err := perftest.Diagnose(r.out, r.err, r.exit); !errors.Is(err, c.kind) || r.exit != 1 {
			t.Errorf("%s: %v (%+v)", c.cmd, err, r)
		}
	}
	f.hosts["gpu02"].Update(func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Carrier = false })
	if r := f.exec(ctx, "gpu02", bwCmd("mlx5_0", 3, 18515, 5, "")); !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrPortDown) ||
		!strings.Contains(r.err, " Port number 1 state is Down\n") {
		t.Errorf("port down: %+v", r)
	}

	// A second server on a taken port.
	sctx, cancel := contextWithCancel(t)
	first := f.startServer(t, sctx, "gpu04", bwCmd("mlx5_0", 3, 18700, 5, ""), 18700)
	r = f.exec(ctx, "gpu04", bwCmd("mlx5_0", 3, 18700, 5, ""))
	if !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrPortInUse) {
		t.Errorf("port in use: %+v", r)
	}
	cancel()
	<-first
}

// A RoCE v1 GID index on the client: the writes are never acknowledged (transport retry
// counter exceeded), the sender counts its retries, and the server's last handshake fails.
func TestV1GIDIndex(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	before := f.snapshot()
	cli, srv := f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18515, 10, ""), "gpu01", bwCmd("mlx5_0", 2, 18515, 10, "10.1.0.3"), 18515)
	after := f.snapshot()
	err := perftest.Diagnose(cli.out, cli.err, cli.exit)
	var fl *perftest.Failure
	if !errors.Is(err, perftest.ErrTransport) || !errors.As(err, &fl) || fl.WCStatus != 12 || cli.exit != 1 {
		t.Errorf("v1 GID: %v\n%s%s", err, cli.out, cli.err)
	}
	if srv.exit != 1 || srv.err != " Failed to exchange data between server and clients\n" {
		t.Errorf("server: %+v", srv)
	}
	snd := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}
	if delta(t, before.hw, after.hw, snd, "local_ack_timeout_err") != 8 || delta(t, before.hw, after.hw, snd, "req_transport_retries_exceeded") != 1 {
		t.Error("the sender's retries are not counted")
	}
	// An empty slot fails modify-QP-to-RTR on both sides.
	cli, srv = f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18516, 10, ""), "gpu01", bwCmd("mlx5_0", 40, 18516, 10, "10.1.0.3"), 18516)
	for _, r := range []result{cli, srv} {
		if !errors.Is(perftest.Diagnose(r.out, r.err, r.exit), perftest.ErrBadGID) || !strings.HasPrefix(r.err, "Failed to modify QP ") {
			t.Errorf("empty GID slot: %+v", r)
		}
	}
}

// A path that cannot carry RoCE frames (no cable, an MTU below the frame) fails the run.
func TestBlackholes(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	// Port 1 of the hosts is not cabled.
	cli, _ := f.transfer(t, "gpu03", bwCmd("mlx5_1", 3, 18515, 5, ""), "gpu01", bwCmd("mlx5_1", 3, 18515, 5, "10.2.0.3"), 18515)
	if !errors.Is(perftest.Diagnose(cli.out, cli.err, cli.exit), perftest.ErrTransport) {
		t.Errorf("uncabled: %+v", cli)
	}
	for _, sw := range []string{"spine1", "spine2"} {
		f.switches[sw].Ports[1].MTU = 4000
	}
	cli, _ = f.transfer(t, "gpu03", bwCmd("mlx5_0", 3, 18516, 5, ""), "gpu01", bwCmd("mlx5_0", 3, 18516, 5, "10.1.0.3"), 18516)
	if !errors.Is(perftest.Diagnose(cli.out, cli.err, cli.exit), perftest.ErrTransport) {
		t.Errorf("MTU 4000: %+v", cli)
	}
	// gpu01 and gpu02 share leafA: one switch, still fine.
	cli, _ = f.transfer(t, "gpu02", bwCmd("mlx5_0", 3, 18517, 5, ""), "gpu01", bwCmd("mlx5_0", 3, 18517, 5, "10.1.0.2"), 18517)
	if r, err := perftest.ParseBW(cli.out); err != nil || r.AvgGbps < 96 {
		t.Errorf("same leaf: %v %+v", err, cli)
	}
}

// Equal-cost members are chosen by the hash of the pair and port: deterministic, and both
// spines carry some ports' flows.
func TestRouteECMP(t *testing.T) {
	f := newTestFabric(t, fast, -1)
	a, b := rdmaemu.Endpoint{Device: "gpu01", Port: linuxhost.Port0}, rdmaemu.Endpoint{Device: "gpu04", Port: linuxhost.Port0}
	seen := map[string]bool{}
	for port := 18515; port < 18535; port++ {
		h1, err1 := f.e.Route(a, b, port)
		h2, err2 := f.e.Route(a, b, port)
		if err1 != nil || err2 != nil || !cmp.Equal(h1, h2) || len(h1) != 3 {
			t.Fatalf("port %d: %v %v %v %v", port, h1, h2, err1, err2)
		}
		seen[h1[1].Device] = true
	}
	if !seen["spine1"] || !seen["spine2"] {
		t.Errorf("members used: %v", seen)
	}
	// A member with a port down is out of the hash.
	f.switches["spine1"].Ports[0].Up = false
	for port := 18515; port < 18535; port++ {
		if h, err := f.e.Route(a, b, port); err != nil || h[1].Device != "spine2" {
			t.Fatalf("with spine1 down, port %d takes %v (%v)", port, h, err)
		}
	}
	f.switches["spine2"].Ports[0].Up = false
	if _, err := f.e.Route(a, b, 18515); !errors.Is(err, rdmaemu.ErrNoPath) {
		t.Errorf("every member down: %v", err)
	}
}
