package rdmaemucheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/rdmaemu"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// testFabric is a small Clos: gpu01, gpu02 on leafA (SONiC), gpu03, gpu04 on leafB (Cumulus),
// both leaves on spine1 (NX-OS) and spine2 (EOS). Port 1 of every host is uncabled.
type testFabric struct {
	e        *rdmaemu.Emulator
	hosts    map[string]*linuxhost.Host
	switches map[string]*switchstate.Switch
}

func newTestFabric(t *testing.T, scale float64, grace time.Duration) *testFabric {
	t.Helper()
	f := &testFabric{hosts: map[string]*linuxhost.Host{}, switches: map[string]*switchstate.Switch{}}
	var hosts []*linuxhost.Host
	for n := 1; n <= 4; n++ {
		h := linuxhost.NewGPUHost(fmt.Sprintf("gpu%02d", n), n)
		f.hosts[h.Name] = h
		hosts = append(hosts, h)
	}
	var sws []*switchstate.Switch
	for _, s := range []struct {
		name, platform string
		mtu            int
		ports          []string
	}{
		{"leafA", "sonic", 9216, []string{"Ethernet0", "Ethernet4", "Ethernet48", "Ethernet52"}},
		{"leafB", "cumulus", 9216, []string{"swp1", "swp2", "swp51", "swp52"}},
		{"spine1", "nxos", 9216, []string{"Ethernet1/1", "Ethernet1/2"}},
		{"spine2", "eos", 9214, []string{"Ethernet1", "Ethernet2"}},
	} {
		sw := &switchstate.Switch{Name: s.name, Platform: s.platform}
		for _, p := range s.ports {
			sw.Ports = append(sw.Ports, switchstate.HealthyPort(p, 100, s.mtu))
		}
		f.switches[s.name] = sw
		sws = append(sws, sw)
	}
	ep := func(d, p string) rdmaemu.Endpoint { return rdmaemu.Endpoint{Device: d, Port: p} }
	cables := []rdmaemu.Cable{
		{ep("gpu01", linuxhost.Port0), ep("leafA", "Ethernet0")},
		{ep("gpu02", linuxhost.Port0), ep("leafA", "Ethernet4")},
		{ep("gpu03", linuxhost.Port0), ep("leafB", "swp1")},
		{ep("gpu04", linuxhost.Port0), ep("leafB", "swp2")},
		{ep("leafA", "Ethernet48"), ep("spine1", "Ethernet1/1")},
		{ep("leafA", "Ethernet52"), ep("spine2", "Ethernet1")},
		{ep("leafB", "swp51"), ep("spine1", "Ethernet1/2")},
		{ep("leafB", "swp52"), ep("spine2", "Ethernet2")},
	}
	e, err := rdmaemu.New(rdmaemu.Config{Hosts: hosts, Switches: sws, Cables: cables, TimeScale: scale, SetupGrace: grace})
	if err != nil {
		t.Fatal(err)
	}
	e.Attach()
	f.e = e
	t.Cleanup(func() {
		if r := e.Running(); len(r) > 0 {
			t.Errorf("perftest still running at the end of the test: %q", r)
		}
	})
	return f
}

type result struct {
	out, err string
	exit     int
}

// exec runs a command on a host through the host's own Exec (the Extension hook).
func (f *testFabric) exec(ctx context.Context, host, cmd string) result {
	o, e, x := f.hosts[host].Exec(ctx, cmd)
	return result{o, e, x}
}

// The auditor's command lines (collectors/perftest templates).
func bwCmd(dev string, gid, port, duration int, ip string) string {
	cmd := fmt.Sprintf("timeout %d ib_write_bw -d %s -i 1 -x %d --tclass 106 -F --report_gbits -D %d -p %d -s 65536",
		duration+15, dev, gid, duration, port)
	if ip != "" {
		cmd += " " + ip
	}
	return cmd
}

func latCmd(dev string, gid, port int, ip string) string {
	cmd := fmt.Sprintf("timeout 25 ib_write_lat -d %s -i 1 -x %d --tclass 106 -F -n 10000 -p %d -s 64", dev, gid, port)
	if ip != "" {
		cmd += " " + ip
	}
	return cmd
}

// startServer runs a server command in the background and waits until ss shows it listening.
func (f *testFabric) startServer(t *testing.T, ctx context.Context, host, cmd string, port int) <-chan result {
	t.Helper()
	ch := make(chan result, 1)
	go func() { ch <- f.exec(ctx, host, cmd) }()
	ss := fmt.Sprintf("ss -Htln sport = :%d", port)
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if r := f.exec(ctx, host, ss); strings.Contains(r.out, "LISTEN") {
			return ch
		}
		select {
		case r := <-ch:
			t.Fatalf("server on %s ended before listening: %+v", host, r)
		default:
		}
	}
	t.Fatalf("server on %s never listened on %d", host, port)
	return nil
}

// transfer runs a server on srvHost and a client on cliHost against srvIP and returns both.
func (f *testFabric) transfer(t *testing.T, srvHost, srvCmd, cliHost, cliCmd string, port int) (client, server result) {
	t.Helper()
	ctx := context.Background()
	ch := f.startServer(t, ctx, srvHost, srvCmd, port)
	client = f.exec(ctx, cliHost, cliCmd)
	select {
	case server = <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("server did not finish after its client")
	}
	return client, server
}

// snapshot copies every counter of the fabric.
type snapshot struct {
	stats, hw map[rdmaemu.Endpoint]map[string]uint64
	sw        map[rdmaemu.Endpoint]map[string]int64
}

func (f *testFabric) snapshot() snapshot {
	s := snapshot{stats: map[rdmaemu.Endpoint]map[string]uint64{}, hw: map[rdmaemu.Endpoint]map[string]uint64{},
		sw: map[rdmaemu.Endpoint]map[string]int64{}}
	for name, h := range f.hosts {
		h.Read(func(h *linuxhost.Host) {
			for _, nd := range h.Netdevs {
				if nd.Eth == nil {
					continue
				}
				at := rdmaemu.Endpoint{Device: name, Port: nd.Name}
				s.stats[at] = map[string]uint64{}
				for k, v := range nd.Eth.Stats {
					s.stats[at][k] = v
				}
				if _, p := h.Port(nd.Name); p != nil {
					s.hw[at] = map[string]uint64{}
					for k, v := range p.Counters {
						s.hw[at][k] = v
					}
				}
			}
		})
	}
	for name, sw := range f.switches {
		sw.Read(func(sw *switchstate.Switch) {
			for _, p := range sw.Ports {
				at := rdmaemu.Endpoint{Device: name, Port: p.Name}
				s.sw[at] = map[string]int64{}
				for k, v := range p.Counters {
					s.sw[at][k] = v
				}
			}
		})
	}
	return s
}

// delta is after minus before for one counter; it fails the test if a counter went down.
func delta[T uint64 | int64](t *testing.T, before, after map[rdmaemu.Endpoint]map[string]T, at rdmaemu.Endpoint, name string) int64 {
	t.Helper()
	b, a := before[at][name], after[at][name]
	if a < b {
		t.Errorf("%s %s went down: %d -> %d", at, name, b, a)
	}
	return int64(a) - int64(b)
}

// rising lists "device:port name" for every counter that rose and matches keep.
func rising[T uint64 | int64](before, after map[rdmaemu.Endpoint]map[string]T, keep func(name string) bool) []string {
	var out []string
	for at, names := range after {
		for name, v := range names {
			if keep(name) && v > before[at][name] {
				out = append(out, at.String()+" "+name)
			}
		}
	}
	return out
}

// waitGroupDone is a WaitGroup wait with a deadline.
func waitGroupDone(t *testing.T, wg *sync.WaitGroup, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatal("goroutines did not finish")
	}
}
