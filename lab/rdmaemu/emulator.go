package rdmaemu

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"sync"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/loginshell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Timing defaults (see the package comment).
const (
	DefaultTimeScale  = 0.02
	DefaultSetupGrace = 2 * time.Second
	// tick is how often a running transfer moves the counters.
	tick = 20 * time.Millisecond
)

// Config is the fabric one Emulator serves.
type Config struct {
	Hosts    []*linuxhost.Host
	Switches []*switchstate.Switch
	Cables   []Cable
	// TimeScale is the wall time one emulated second takes: 0 means DefaultTimeScale, with
	// which a `-D 10` run returns after 200 ms, printing the numbers of a 10 s run.
	TimeScale float64
	// SetupGrace is added, unscaled, to every emulated coreutils timeout: the auditor's SSH
	// round trips between starting a server and its client take wall time that the scale
	// does not shrink. 0 means DefaultSetupGrace; negative means none.
	SetupGrace time.Duration
}

// Emulator answers perftest (ib_write_bw, ib_write_lat, under coreutils timeout) and its
// port check (ss) on the lab's hosts, with results that follow from the lab's state.
type Emulator struct {
	hosts     map[string]*linuxhost.Host
	hostOrder []string
	switches  map[string]*switchstate.Switch
	net       *network
	scale     float64
	grace     time.Duration

	mu        sync.Mutex
	listeners map[listenKey]*listener
	running   map[int]string
	nextID    int
}

// New builds an emulator over the hosts, switches and cables. It changes nothing until
// Attach.
func New(cfg Config) (*Emulator, error) {
	e := &Emulator{hosts: map[string]*linuxhost.Host{}, switches: map[string]*switchstate.Switch{},
		scale: cfg.TimeScale, grace: cfg.SetupGrace, listeners: map[listenKey]*listener{}, running: map[int]string{}}
	if e.scale <= 0 {
		e.scale = DefaultTimeScale
	}
	switch {
	case e.grace == 0:
		e.grace = DefaultSetupGrace
	case e.grace < 0:
		e.grace = 0
	}
	isSwitch := map[string]bool{}
	for _, sw := range cfg.Switches {
		if sw == nil || e.switches[sw.Name] != nil {
			return nil, errors.New("rdmaemu: a switch is nil or named twice")
		}
		e.switches[sw.Name], isSwitch[sw.Name] = sw, true
	}
	for _, h := range cfg.Hosts {
		if h == nil || e.hosts[h.Name] != nil || isSwitch[h.Name] {
			return nil, errors.New("rdmaemu: a host is nil or its name is taken")
		}
		e.hosts[h.Name] = h
		e.hostOrder = append(e.hostOrder, h.Name)
	}
	n, err := newNetwork(cfg.Cables, isSwitch)
	if err != nil {
		return nil, err
	}
	e.net = n
	return e, nil
}

// Attach makes every host answer perftest and ss through the emulator (Host.Extension). Call
// it before the hosts serve.
func (e *Emulator) Attach() {
	for _, name := range e.hostOrder {
		name := name
		e.hosts[name].Extension = func(ctx context.Context, cmd string) (string, string, int, bool) {
			return e.Exec(ctx, name, cmd)
		}
	}
}

// Exec answers one command line on host; ok is false for a command the emulator does not own.
// A perftest server blocks until its client finishes, ctx ends (the SSH channel closed: the
// process is gone) or its emulated timeout fires.
func (e *Emulator) Exec(ctx context.Context, host, cmd string) (stdout, stderr string, exit int, ok bool) {
	h := e.hosts[host]
	if h == nil {
		return "", "", 0, false
	}
	inv, ok := classify(cmd)
	if !ok {
		return "", "", 0, false
	}
	if inv.kind == "ss" {
		return e.ss(host, inv.ssPort), "", 0, true
	}
	installed := false
	h.Read(func(h *linuxhost.Host) { installed = h.Perftest })
	switch {
	case inv.kind == "timeout-other" || !installed && inv.timeout > 0:
		return "", timeoutNotFound(inv.prog), 127, true
	case !installed:
		stdout, stderr, exit := loginshell.NotFound(inv.prog, inv.sudo)
		return stdout, stderr, exit, true
	}
	a, err := parsePerftest(inv.prog, inv.args)
	var pe *parseError
	if errors.As(err, &pe) {
		return "", pe.stderr, 1, true
	}
	role := "server"
	if a.server != "" {
		role = "client " + a.server
	}
	defer e.track(fmt.Sprintf("%s %s %s :%d", host, a.test(), role, a.tcpPort))()

	var deadline <-chan time.Time
	if inv.timeout > 0 {
		t := time.NewTimer(e.wall(float64(inv.timeout)) + e.grace)
		defer t.Stop()
		deadline = t.C
	}
	if a.server == "" {
		stdout, stderr, exit = e.runServer(ctx, h, a, deadline)
	} else {
		stdout, stderr, exit = e.runClient(ctx, h, a, deadline)
	}
	return stdout, stderr, exit, true
}

// wall is the wall time of an emulated duration in seconds.
func (e *Emulator) wall(seconds float64) time.Duration {
	return time.Duration(seconds * e.scale * float64(time.Second))
}

// Running lists the perftest processes currently running (servers waiting or serving,
// clients transferring), e.g. "gpu05 ib_write_bw server :18515"; empty when none.
func (e *Emulator) Running() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.running))
	for _, r := range e.running {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

func (e *Emulator) track(what string) (done func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.nextID++
	id := e.nextID
	e.running[id] = what
	return func() {
		e.mu.Lock()
		delete(e.running, id)
		e.mu.Unlock()
	}
}

// ss lists the emulated listener on the port, if any, as `ss -Htln sport = :P` does.
func (e *Emulator) ss(host string, port int) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.listeners[listenKey{host, port}]; ok {
		return ssListen(port)
	}
	return ""
}

// hostByAddr finds the host that owns an address on any netdev.
func (e *Emulator) hostByAddr(ip netip.Addr) *linuxhost.Host {
	for _, name := range e.hostOrder {
		h := e.hosts[name]
		found := false
		h.Read(func(h *linuxhost.Host) {
			for _, nd := range h.Netdevs {
				for _, p := range nd.Addrs {
					found = found || p.Addr() == ip
				}
			}
		})
		if found {
			return h
		}
	}
	return nil
}

// ErrNoPath is returned by Route when the two ports are not joined by cables whose switch
// ports are all up.
var ErrNoPath = errors.New("no path")

// Route is the equal-cost member an ib_write_bw flow from client to server on tcpPort takes
// without --flow_label: its flow label is the one mlx5 derives from the two QP numbers
// (which the run's seed fixes for the pair and port), so the same port always takes the same
// member. Members with a port down are left out; none left is ErrNoPath.
func (e *Emulator) Route(client, server Endpoint, tcpPort int) ([]Hop, error) {
	sd := newSeed(client.Device, client.Port, server.Device, server.Port, tcpPort, progWriteBW)
	return e.route(client, server, flowSport(0, qpOf(sd, "client").qpn, qpOf(sd, "server").qpn))
}

// RouteFlowLabel is the member a flow whose client sets GRH flow label fl takes (perftest
// --flow_label fl; 0 is "none", as the kernel treats it).
func (e *Emulator) RouteFlowLabel(client, server Endpoint, fl uint32) ([]Hop, error) {
	if fl == 0 {
		return nil, fmt.Errorf("rdmaemu: flow label 0 means none; the QP numbers pick the port")
	}
	return e.route(client, server, flowSport(fl, 0, 0))
}

func (e *Emulator) route(client, server Endpoint, sport uint16) ([]Hop, error) {
	all := e.net.members(client, server)
	if len(all) == 0 {
		return nil, fmt.Errorf("rdmaemu: %s to %s: %w (not cabled)", client, server, ErrNoPath)
	}
	var up [][]Hop
	for _, m := range all {
		if e.allUp(m) {
			up = append(up, m)
		}
	}
	if len(up) == 0 {
		return nil, fmt.Errorf("rdmaemu: %s to %s: %w (every equal-cost member has a port down)", client, server, ErrNoPath)
	}
	return pick(up, fiveTuple{src: client, dst: server, sport: sport}, e.ipOnly), nil
}

// ipOnly reports whether a switch hashes on addresses only (switchstate.ECMPHashIPOnly).
func (e *Emulator) ipOnly(name string) bool {
	sw := e.switches[name]
	if sw == nil {
		return false
	}
	var v bool
	sw.Read(func(s *switchstate.Switch) { v = s.ECMPHashIPOnly })
	return v
}

func (e *Emulator) allUp(hops []Hop) bool {
	for _, h := range hops {
		for _, name := range []string{h.In, h.Out} {
			if p, ok := readSwitchPort(e.switches[h.Device], name); !ok || !p.up {
				return false
			}
		}
	}
	return true
}
