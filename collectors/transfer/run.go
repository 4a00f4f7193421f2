package transfer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Options tune a transfer.
type Options struct {
	Duration     time.Duration // perftest -D; default 5s
	TrafficClass int           // the ToS byte RoCE is marked with (recipe roce_tos), e.g. 106
	Latency      bool          // also run ib_write_lat
	FirstTCPPort int           // first out-of-band port tried; default 18515
	// AllPaths steps perftest's flow label until every equal-cost member carried a test,
	// within MaxAttempts (default 4 x members, at most 64) and Budget (default 10 minutes).
	AllPaths    bool
	MaxAttempts int
	Budget      time.Duration
}

// Runner runs transfers over the devices of an inventory.
type Runner struct {
	Inventory *inventory.Inventory
	Registry  *collectors.Registry
	Dialer    collectors.Dialer
	Options   Options

	mu       sync.Mutex
	sessions map[string]*session
}

// session is an open connection to one device, recording into the snapshot's transcript.
type session struct {
	spec     inventory.DeviceSpec
	platform collectors.Platform
	close    func() error
	run      collectors.Runner
}

func (r *Runner) duration() time.Duration {
	if r.Options.Duration > 0 {
		return r.Options.Duration
	}
	return 5 * time.Second
}

// Close ends every session the runner opened.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		_ = s.close()
	}
	r.sessions = nil
}

func (r *Runner) session(ctx context.Context, snap *topology.Snapshot, name string) (*session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[name]; ok {
		return s, nil
	}
	spec, ok := r.Inventory.Device(name)
	if !ok {
		return nil, fmt.Errorf("%s is not in the inventory", name)
	}
	// A host session runs perftest: its per-command bound must cover the whole test.
	if need := r.duration() + perftest.DefaultTimeoutSlack + 30*time.Second; spec.Role == topology.RoleHost && spec.Conn.Timeout < need {
		spec.Conn.Timeout = need
	}
	p, ok := r.Registry.Get(spec.Platform)
	if !ok {
		return nil, fmt.Errorf("%s: no collector for platform %q", name, spec.Platform)
	}
	sess, err := r.Dialer.Dial(ctx, spec, p.Allowlist())
	if err != nil {
		return nil, err
	}
	dev := snapDevice(snap, name)
	s := &session{spec: spec, platform: p, close: sess.Close, run: collectors.Record(sess, p.Allowlist(), dev)}
	if r.sessions == nil {
		r.sessions = map[string]*session{}
	}
	r.sessions[name] = s
	return s, nil
}

func snapDevice(snap *topology.Snapshot, name string) *topology.Device {
	for _, d := range snap.Devices {
		if d.Name == name {
			return d
		}
	}
	d := &topology.Device{Name: name}
	snap.Devices = append(snap.Devices, d)
	return d
}

// Run performs one transfer from (client) to (server) and returns what it showed. It never
// leaves perftest running: the server runs under coreutils timeout and its session is closed
// (the process killed) on every return path.
func (r *Runner) Run(ctx context.Context, snap *topology.Snapshot, from, to topology.Endpoint) topology.Transfer {
	return r.runLabel(ctx, snap, from, to, 0)
}

// runLabel is Run with perftest's --flow_label set to label (0: none); RunPair steps it.
func (r *Runner) runLabel(ctx context.Context, snap *topology.Snapshot, from, to topology.Endpoint, label int) topology.Transfer {
	x := topology.Transfer{From: from, To: to, Test: perftest.TestWriteBW, FlowLabel: label}
	client, err := pickSide(snap, from)
	if err == nil {
		var server side
		server, err = pickSide(snap, to)
		if err == nil {
			x.From, x.To = client.ep, server.ep
			x.GIDIndex = map[string]int{"from": client.gidIndex, "to": server.gidIndex}
			r.transfer(ctx, snap, &x, client, server)
			return x
		}
	}
	x.Error, x.ErrorKind = "cannot start: "+err.Error(), "setup"
	return x
}

func (r *Runner) transfer(ctx context.Context, snap *topology.Snapshot, x *topology.Transfer, client, server side) {
	paths, _, err := topology.NewGraph(snap.Devices, topology.ResolveLinks(snap)).Paths(client.ep, server.ep)
	if err != nil {
		x.Error, x.ErrorKind = err.Error(), "setup"
		return
	}
	x.Paths = paths
	r.attempt(ctx, snap, x, client, server)
}

// attempt samples the path's counters around one perftest run.
func (r *Runner) attempt(ctx context.Context, snap *topology.Snapshot, x *topology.Transfer, client, server side) {
	paths := x.Paths
	x.LinkGbps, x.SlowestLink = slowestLink(snap, client, server, paths)
	ports := sampledPorts(client, server, paths)

	before, berr := r.sample(ctx, snap, ports)
	refresh := r.counterSettle(ctx, snap, ports)
	r.perftest(ctx, snap, x, client, server)
	settle(ctx, refresh) // polled counters hold the whole test only one refresh later
	after, aerr := r.sample(ctx, snap, ports)
	if err := errors.Join(berr, aerr); err != nil {
		x.CounterError = err.Error()
	}
	x.Hops, x.UnsampledPorts = deltas(ports, before, after)
	for i := range x.Hops {
		if spec, ok := r.Inventory.Device(x.Hops[i].Device); ok {
			x.Hops[i].Role = spec.Role
		}
	}
}

// sampledPorts is every port of every equal-cost path, hosts included, per device.
func sampledPorts(client, server side, paths [][]topology.Hop) map[string][]string {
	out := map[string][]string{}
	add := func(dev, port string) {
		if port == "" {
			return
		}
		for _, p := range out[dev] {
			if p == port {
				return
			}
		}
		out[dev] = append(out[dev], port)
	}
	add(client.ep.Device, client.ep.Interface)
	add(server.ep.Device, server.ep.Interface)
	for _, hops := range paths {
		for _, h := range hops {
			add(h.Device, h.InPort)
			add(h.Device, h.OutPort)
		}
	}
	return out
}

// counters maps device -> normalized port -> counter -> value.
type counters map[string]map[string]map[string]int64

// sample reads the counters of every sampled device in parallel by collecting it again: the
// same read-only commands, so the counters mean the same as in the audit.
func (r *Runner) sample(ctx context.Context, snap *topology.Snapshot, ports map[string][]string) (counters, error) {
	out := counters{}
	var mu sync.Mutex
	var errs []error
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for dev := range ports {
		g.Go(func() error {
			got, err := r.readCounters(gctx, snap, dev)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", dev, err))
				return nil
			}
			out[dev] = got
			return nil
		})
	}
	_ = g.Wait()
	return out, errors.Join(errs...)
}

func (r *Runner) readCounters(ctx context.Context, snap *topology.Snapshot, name string) (map[string]map[string]int64, error) {
	s, err := r.session(ctx, snap, name)
	if err != nil {
		return nil, err
	}
	scratch := &topology.Device{Name: name, Platform: s.spec.Platform, Role: s.spec.Role, Reachable: true}
	if err := s.platform.Collect(ctx, s.run, s.spec, scratch); err != nil {
		return nil, err
	}
	out := map[string]map[string]int64{}
	if scratch.Host != nil {
		for _, p := range scratch.Host.Ports {
			if p.Counters.Usable() {
				out[topology.NormalizePort(p.Netdev)] = p.Counters.Value
			}
		}
	}
	if scratch.Switch != nil {
		for _, p := range scratch.Switch.Ports {
			if p.Counters.Usable() {
				out[topology.NormalizePort(p.Name)] = p.Counters.Value
			}
		}
	}
	return out, nil
}

// deltas are after - before for every sampled port; a counter that did not move is kept only
// when it is one that proves loss or pause did not happen (so "0 drops" is visible, and a
// port that paused nobody is told apart from one whose pause counters were not read).
// Ports whose counters could not be read before and after are listed in missing.
func deltas(ports map[string][]string, before, after counters) (out []topology.HopCounters, missing []string) {
	for dev, list := range ports {
		for _, port := range list {
			key := topology.NormalizePort(port)
			b, a := before[dev][key], after[dev][key]
			if a == nil || b == nil {
				missing = append(missing, dev+":"+port)
				continue
			}
			d := map[string]int64{}
			for k, v := range a {
				old, ok := b[k]
				if !ok {
					continue
				}
				if delta := v - old; delta != 0 || topology.IsLossCounter(k) || topology.IsPauseCounter(k) || topology.IsTrafficCounter(k) {
					d[k] = delta
				}
			}
			out = append(out, topology.HopCounters{Device: dev, Interface: port, CounterDeltas: d})
		}
	}
	sortHops(out)
	sort.Strings(missing)
	return out, missing
}

func sortHops(h []topology.HopCounters) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].Device != h[j].Device {
			return h[i].Device < h[j].Device
		}
		return h[i].Interface < h[j].Interface
	})
}
