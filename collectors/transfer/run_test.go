package transfer

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// fakeHost answers the transfer's commands; the client's behaviour is chosen per test.
type fakeHost struct {
	mu        sync.Mutex
	listening bool
	client    string // "ok", "hang", "transport"
	// serverExit makes the server stop at once with this output instead of listening.
	serverExit *collectors.Output
	// lingers keeps the server listening after it was stopped (a host that kills nothing).
	lingers    bool
	stopped    atomic.Int32 // servers whose context was cancelled
	finished   atomic.Int32 // servers that ended with their client
	reads      atomic.Int32 // counter reads
	clientDone chan struct{}
}

type fakeSession struct{ h *fakeHost }

func (s fakeSession) Close() error    { return nil }
func (s fakeSession) Simulated() bool { return true }

func (s fakeSession) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	h := s.h
	switch {
	case strings.HasPrefix(cmd, "ss -Htln"):
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.listening {
			return collectors.Output{Stdout: "LISTEN 0      4096         0.0.0.0:18515      0.0.0.0:*\n"}, nil
		}
		return collectors.Output{}, nil
	case strings.HasPrefix(cmd, "timeout") && strings.HasSuffix(cmd, "-s 65536"): // server
		if h.serverExit != nil {
			return *h.serverExit, nil
		}
		h.mu.Lock()
		h.listening = true
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			h.listening = h.lingers
			h.mu.Unlock()
		}()
		select {
		case <-h.clientDone:
			h.finished.Add(1)
			return collectors.Output{Stdout: "server done\n"}, nil
		case <-ctx.Done():
			h.stopped.Add(1)
			return collectors.Output{}, ctx.Err()
		}
	case strings.HasPrefix(cmd, "timeout"): // client
		switch h.client {
		case "hang":
			<-ctx.Done()
			return collectors.Output{}, ctx.Err()
		case "transport":
			out, _ := os.ReadFile("../../fixtures/perftest/hostsmd/err_completion_a.txt")
			return collectors.Output{Stdout: string(out), ExitCode: 1}, nil
		}
		out, err := os.ReadFile("../../fixtures/perftest/hostsmd/bw_client_cx6dx_sweep.txt")
		close(h.clientDone)
		return collectors.Output{Stdout: string(out)}, err
	}
	return collectors.Output{ExitCode: 127, Stderr: "not found"}, nil
}

type fakeDialer struct{ h *fakeHost }

func (d fakeDialer) Dial(context.Context, inventory.DeviceSpec, *collectors.Allowlist) (collectors.Session, error) {
	return fakeSession{d.h}, nil
}

// fakePlatform "collects" counters that move between reads.
type fakePlatform struct{ h *fakeHost }

func (fakePlatform) Plan(inventory.DeviceSpec) []string { return nil }
func (p fakePlatform) Collect(_ context.Context, _ collectors.Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	n := int64(p.h.reads.Add(1))
	dev.Host = &topology.HostFacts{Ports: []*topology.HostPort{{Netdev: "ens1f0np0",
		Counters: topology.Known(map[string]int64{"rdma_out_of_sequence": 10 * n, "tx_prio3_packets": 100 * n}, topology.Evidence{})}}}
	return nil
}

func hostDevice(name, ip string) *topology.Device {
	return &topology.Device{Name: name, Platform: "fake", Role: topology.RoleHost, Reachable: true, Host: &topology.HostFacts{
		Ports: []*topology.HostPort{{Netdev: "ens1f0np0", RDMADevice: "mlx5_0", RDMAPort: 1,
			Link:  topology.Known(topology.Netdev{Name: "ens1f0np0", Addresses: []string{ip}}, topology.Evidence{}),
			State: topology.Known(topology.RDMAPort{SpeedGbps: 100}, topology.Evidence{}),
			GIDs: topology.Known([]topology.GID{
				{Index: 2, IP: ip, Type: topology.GIDTypeV1, Netdev: "ens1f0np0"},
				{Index: 3, IP: ip, Type: topology.GIDTypeV2, Netdev: "ens1f0np0"},
			}, topology.Evidence{})}}}}
}

func setup(h *fakeHost) (*Runner, *topology.Snapshot) {
	h.clientDone = make(chan struct{})
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{
		{Name: "a", Platform: "fake", Role: topology.RoleHost}, {Name: "b", Platform: "fake", Role: topology.RoleHost}}}
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{hostDevice("a", "10.0.0.1"), hostDevice("b", "10.0.0.2")},
		Links: []topology.Link{{A: topology.PortRef{Device: "a", Interface: "ens1f0np0"}, B: topology.PortRef{Device: "b", Interface: "ens1f0np0"}}}}
	r := &Runner{Inventory: inv, Registry: collectors.NewRegistry(collectors.Describe(collectors.Spec{
		Name: "fake", Role: topology.RoleHost, Commands: perftest.Templates(), Collector: fakePlatform{h}})), Dialer: fakeDialer{h},
		Options: Options{Duration: time.Second, TrafficClass: 106}}
	return r, snap
}

var a, b = topology.Endpoint{Device: "a", Interface: "ens1f0np0"}, topology.Endpoint{Device: "b", Interface: "ens1f0np0"}

func TestSuccessfulTransferMeasuresAndDiffsCounters(t *testing.T) {
	h := &fakeHost{client: "ok"}
	r, snap := setup(h)
	defer r.Close()
	x := r.Run(context.Background(), snap, a, b)
	if !x.Ran || x.Error != "" || x.BandwidthGbps <= 0 || x.GIDIndex["from"] != 3 || x.GIDIndex["to"] != 3 {
		t.Fatalf("%+v", x)
	}
	if !strings.Contains(x.ClientCommand, "-x 3 --tclass 106") || !strings.HasSuffix(x.ClientCommand, " 10.0.0.2") {
		t.Errorf("client command %q", x.ClientCommand)
	}
	if x.LinkGbps != 100 || x.SlowestLink != "a:ens1f0np0" {
		t.Errorf("slowest link %v Gb/s at %q, want the client's 100G port", x.LinkGbps, x.SlowestLink)
	}
	if len(x.Hops) != 2 || x.Hops[0].CounterDeltas["rdma_out_of_sequence"] <= 0 {
		t.Errorf("hops %+v", x.Hops)
	}
	if h.finished.Load() != 1 || h.stopped.Load() != 0 {
		t.Errorf("the server should end with its client: finished %d, stopped %d", h.finished.Load(), h.stopped.Load())
	}
}

func TestHangingClientIsBoundedAndTheServerStopped(t *testing.T) {
	h := &fakeHost{client: "hang"}
	r, snap := setup(h)
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	x := r.Run(ctx, snap, a, b)
	if time.Since(start) > 5*time.Second {
		t.Fatalf("took %s", time.Since(start))
	}
	if x.Ran || !strings.Contains(x.Error, "deadline exceeded") {
		t.Errorf("%+v", x)
	}
	if h.stopped.Load() != 1 {
		t.Errorf("server not stopped after the timeout")
	}
	if x.ServerLeftover != "" {
		t.Errorf("a server confirmed gone is reported left over: %s", x.ServerLeftover)
	}
}

// A server that still listens after it was stopped is reported with what bounds it.
func TestServerStillListeningAfterStopIsReported(t *testing.T) {
	h := &fakeHost{client: "hang", lingers: true}
	r, snap := setup(h)
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	x := r.Run(ctx, snap, a, b)
	if !strings.Contains(x.ServerLeftover, "still listened on TCP port 18515") || !strings.Contains(x.ServerLeftover, "timeout ends it") {
		t.Errorf("leftover = %q", x.ServerLeftover)
	}
}

func TestTransportFailureAndEarlyServerExitAreDiagnosed(t *testing.T) {
	h := &fakeHost{client: "transport"}
	r, snap := setup(h)
	x := r.Run(context.Background(), snap, a, b)
	r.Close()
	if x.Ran || x.ErrorKind != KindTransport {
		t.Errorf("transport: %+v", x)
	}
	h = &fakeHost{serverExit: &collectors.Output{Stdout: " Did not detect devices \n If device exists, check if driver is up\n", ExitCode: 1}}
	r, snap = setup(h)
	defer r.Close()
	x = r.Run(context.Background(), snap, a, b)
	if x.Ran || x.ErrorKind != "no-device" || !errors.Is(perftest.Diagnose(" Did not detect devices \n", "", 1), perftest.ErrNoDevice) {
		t.Errorf("early server exit: %+v", x)
	}
}

func TestNeverARoCEv1Index(t *testing.T) {
	h := &fakeHost{client: "ok"}
	r, snap := setup(h)
	defer r.Close()
	gids := &snap.Devices[1].Host.Ports[0].GIDs.Value
	*gids = (*gids)[:1] // b has only the v1 entry
	x := r.Run(context.Background(), snap, a, b)
	if x.Ran || x.ErrorKind != "setup" || !strings.Contains(x.Error, "no RoCE v2 GID") || x.ClientCommand != "" {
		t.Errorf("%+v", x)
	}
}

// switchDevice is a switch whose ports have the given speeds in Gb/s; a negative speed is
// unknown (as a NOS that shows none).
func switchDevice(name string, speeds map[string]float64) *topology.Device {
	sw := &topology.SwitchFacts{}
	for port, gbps := range speeds {
		sp := &topology.SwitchPort{Name: port, Speed: topology.Known(gbps, topology.Evidence{Command: "show"})}
		if gbps < 0 {
			sp.Speed = topology.Unknown[float64](topology.Evidence{Command: "show", Error: "no speed"})
		}
		sw.Ports = append(sw.Ports, sp)
	}
	return &topology.Device{Name: name, Platform: "fake", Role: topology.RoleSwitch, Reachable: true, Switch: sw}
}

func link(a, ai, b, bi string) topology.Link {
	return topology.Link{A: topology.PortRef{Device: a, Interface: ai}, B: topology.PortRef{Device: b, Interface: bi}, Source: "inventory"}
}

// fabricSetup puts a leaf-spine fabric between a and b: a - leaf1 - {spine1, spine2} - leaf2 - b,
// every port 100G except spine2's port toward leaf2 (25G, on one equal-cost member only), a
// leaf2 port whose speed is unknown, and a 10G leaf1 port that is on no path.
func fabricSetup(h *fakeHost) (*Runner, *topology.Snapshot) {
	r, snap := setup(h)
	snap.Devices = append(snap.Devices,
		switchDevice("leaf1", map[string]float64{"Ethernet0": 100, "Ethernet48": 100, "Ethernet52": 100, "Ethernet8": 10}),
		switchDevice("spine1", map[string]float64{"Ethernet1/1": 100, "Ethernet1/2": 100}),
		switchDevice("spine2", map[string]float64{"Ethernet0": 100, "Ethernet4": 25}),
		switchDevice("leaf2", map[string]float64{"swp1": -1, "swp51": 100, "swp52": 100}))
	snap.Links = []topology.Link{
		link("a", "ens1f0np0", "leaf1", "Ethernet0"),
		link("leaf1", "Ethernet48", "spine1", "Ethernet1/1"), link("leaf1", "Ethernet52", "spine2", "Ethernet0"),
		link("spine1", "Ethernet1/2", "leaf2", "swp51"), link("spine2", "Ethernet4", "leaf2", "swp52"),
		link("leaf2", "swp1", "b", "ens1f0np0"),
	}
	for _, name := range []string{"leaf1", "spine1", "spine2", "leaf2"} {
		r.Inventory.Devices = append(r.Inventory.Devices, inventory.DeviceSpec{Name: name, Platform: "fake", Role: topology.RoleSwitch})
	}
	return r, snap
}

// A 25G switch port on one equal-cost member makes the path's link speed 25 Gb/s and is named;
// the 100G host ports, the unknown leaf2 port and the 10G port off the path do not count.
func TestSlowestLinkIsASwitchPortOnThePath(t *testing.T) {
	h := &fakeHost{client: "ok"}
	r, snap := fabricSetup(h)
	defer r.Close()
	x := r.Run(context.Background(), snap, a, b)
	if !x.Ran || len(x.Paths) != 2 {
		t.Fatalf("transfer %+v", x)
	}
	if x.LinkGbps != 25 || x.SlowestLink != "spine2:Ethernet4" {
		t.Errorf("slowest link %v Gb/s at %q, want 25 at spine2:Ethernet4", x.LinkGbps, x.SlowestLink)
	}
}

func TestSlowestLinkUsesKnownSpeedsOnly(t *testing.T) {
	h := &fakeHost{client: "ok"}
	_, snap := fabricSetup(h)
	client, err := pickSide(snap, a)
	if err != nil {
		t.Fatal(err)
	}
	server, _ := pickSide(snap, b)
	hops := func(spine, in, out string) []topology.Hop {
		return []topology.Hop{{Device: "a", OutPort: "ens1f0np0"}, {Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet48"},
			{Device: spine, InPort: in, OutPort: out}, {Device: "leaf2", InPort: "swp51", OutPort: "swp1"}, {Device: "b", InPort: "ens1f0np0"}}
	}
	// Only 100G everywhere: the first port met, the client's, is named.
	if gbps, name := slowestLink(snap, client, server, [][]topology.Hop{hops("spine1", "Ethernet1/1", "Ethernet1/2")}); gbps != 100 || name != "a:ens1f0np0" {
		t.Errorf("all 100G: %v %q", gbps, name)
	}
	// A path that spells a port the LLDP way (Eth1/2) still finds it.
	snap.Devices[3].Switch.Port("Ethernet1/2").Speed.Value = 40
	if gbps, name := slowestLink(snap, client, server, [][]topology.Hop{hops("spine1", "Eth1/1", "Eth1/2")}); gbps != 40 || name != "spine1:Ethernet1/2" {
		t.Errorf("short port name: %v %q, want 40 at spine1:Ethernet1/2", gbps, name)
	}
	// A host port slower than the fabric is the slowest link.
	server.port.State.Value.SpeedGbps = 50
	if gbps, name := slowestLink(snap, client, server, [][]topology.Hop{hops("spine1", "Ethernet1/1", "Ethernet1/2")}); gbps != 40 || name != "spine1:Ethernet1/2" {
		t.Errorf("40G spine port, 50G server: %v %q", gbps, name)
	}
	server.port.State.Value.SpeedGbps = 10
	if gbps, name := slowestLink(snap, client, server, [][]topology.Hop{hops("spine1", "Ethernet1/1", "Ethernet1/2")}); gbps != 10 || name != "b:ens1f0np0" {
		t.Errorf("10G server: %v %q", gbps, name)
	}
	// Nothing known: no speed and no name.
	for _, d := range snap.Devices {
		if d.Host != nil {
			d.Host.Ports[0].State = topology.Unknown[topology.RDMAPort](topology.Evidence{})
		}
		if d.Switch != nil {
			for _, p := range d.Switch.Ports {
				p.Speed = topology.Unknown[float64](topology.Evidence{})
			}
		}
	}
	if gbps, name := slowestLink(snap, client, server, [][]topology.Hop{hops("spine1", "Ethernet1/1", "Ethernet1/2")}); gbps != 0 || name != "" {
		t.Errorf("nothing known: %v %q", gbps, name)
	}
}
