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

	"github.com/roceaudit/roceaudit/checks/recipe"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/topology"
)

// fakeHost answers the transfer's commands; the client's behaviour is chosen per test.
type fakeHost struct {
	mu        sync.Mutex
	listening bool
	client    string // "ok", "hang", "transport"
	// serverExit makes the server stop at once with this output instead of listening.
	serverExit *collectors.Output
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

func (d fakeDialer) Dial(context.Context, topology.DeviceSpec, *collectors.Allowlist) (collectors.Session, error) {
	return fakeSession{d.h}, nil
}

// fakePlatform "collects" counters that move between reads.
type fakePlatform struct{ h *fakeHost }

func (fakePlatform) Name() string                      { return "fake" }
func (fakePlatform) Role() topology.Role               { return topology.RoleHost }
func (fakePlatform) Plan(topology.DeviceSpec) []string { return nil }
func (fakePlatform) Allowlist() *collectors.Allowlist {
	return collectors.NewAllowlist(perftest.Templates()...)
}
func (p fakePlatform) Collect(_ context.Context, _ collectors.Runner, spec topology.DeviceSpec, dev *topology.Device) error {
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
	inv := &topology.Inventory{Recipe: recipe.Default(), Devices: []topology.DeviceSpec{
		{Name: "a", Platform: "fake", Role: topology.RoleHost}, {Name: "b", Platform: "fake", Role: topology.RoleHost}}}
	snap := &topology.Snapshot{Recipe: recipe.Default(), Devices: []*topology.Device{hostDevice("a", "10.0.0.1"), hostDevice("b", "10.0.0.2")},
		Links: []topology.Link{{A: topology.PortRef{Device: "a", Interface: "ens1f0np0"}, B: topology.PortRef{Device: "b", Interface: "ens1f0np0"}}}}
	r := &Runner{Inventory: inv, Registry: collectors.NewRegistry(fakePlatform{h}), Dialer: fakeDialer{h},
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
