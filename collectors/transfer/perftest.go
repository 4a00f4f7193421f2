package transfer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/topology"
)

// failureKinds name perftest's failure classes in the snapshot.
var failureKinds = []struct {
	err  error
	name string
}{
	{perftest.ErrNotInstalled, "not-installed"}, {perftest.ErrNoDevice, "no-device"},
	{perftest.ErrPortDown, "port-down"}, {perftest.ErrBadGID, "bad-gid"},
	{perftest.ErrPortInUse, "port-in-use"}, {perftest.ErrConnect, "connect"},
	{perftest.ErrPeerFailed, "peer-failed"}, {perftest.ErrTransport, "transport"},
	{perftest.ErrUsage, "usage"}, {perftest.ErrTimeout, "timeout"},
}

// KindTransport is the failure kind that means the network lost packets (not a setup problem).
const KindTransport = "transport"

func kindOf(err error) string {
	for _, k := range failureKinds {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "failed"
}

// perftest runs the bandwidth test (and the latency test when asked) between the two sides.
func (r *Runner) perftest(ctx context.Context, snap *topology.Snapshot, x *topology.Transfer, client, server side) {
	if err := r.pair(ctx, snap, perftest.TestWriteBW, x, client, server); err != nil {
		x.Error, x.ErrorKind = err.Error(), kindOf(err)
		return
	}
	res, err := perftest.ParseBW(x.Output)
	if err != nil {
		x.Error, x.ErrorKind = "perftest output not understood: "+err.Error(), "output"
		return
	}
	x.Ran, x.BandwidthGbps = true, res.AvgGbps
	if !r.Options.Latency {
		return
	}
	lat := *x
	if err := r.pair(ctx, snap, perftest.TestWriteLat, &lat, client, server); err != nil {
		x.Error, x.ErrorKind = "latency run: "+err.Error(), kindOf(err)
		return
	}
	l, err := perftest.ParseLat(lat.Output)
	if err != nil {
		x.Error, x.ErrorKind = "latency output not understood: "+err.Error(), "output"
		return
	}
	x.LatencyUS = &topology.Latency{Typical: l.TypicalUS, P99: l.P99US}
}

// pair runs one server and one client. The client's output lands in x.Output; the server is
// stopped on every return path.
func (r *Runner) pair(ctx context.Context, snap *topology.Snapshot, test string, x *topology.Transfer, client, server side) error {
	ss, err := r.session(ctx, snap, server.ep.Device)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", perftest.ErrConnect, server.ep.Device, err)
	}
	cs, err := r.session(ctx, snap, client.ep.Device)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", perftest.ErrConnect, client.ep.Device, err)
	}
	dur := r.duration()
	tcpPort, err := r.freePort(ctx, ss)
	if err != nil {
		return err
	}
	sp := perftest.Params{Test: test, Device: server.port.RDMADevice, Port: server.port.RDMAPort, GIDIndex: server.gidIndex,
		TrafficClass: r.Options.TrafficClass, Duration: dur, TCPPort: tcpPort, FlowLabel: x.FlowLabel}.WithDefaults()
	cp := sp
	cp.Device, cp.Port, cp.GIDIndex, cp.ServerIP = client.port.RDMADevice, client.port.RDMAPort, client.gidIndex, server.ipv4
	serverCmd, err := perftest.ServerCommand(sp)
	if err != nil {
		return err
	}
	clientCmd, err := perftest.ClientCommand(cp)
	if err != nil {
		return err
	}
	x.ServerCommand, x.ClientCommand = serverCmd, clientCmd

	// Both sides run on a terminal: closing their sessions hangs them up even where the host
	// refuses or cannot relay signals.
	hangup := collectors.WithHangup(ctx)
	sctx, stop := context.WithCancel(hangup)
	srv := &serverRun{done: make(chan result, 1)}
	go func() {
		out, err := ss.run.Run(sctx, serverCmd)
		srv.done <- result{out, err}
	}()
	// However this ends, the server's session is closed (killing perftest) and its goroutine
	// has returned before pair does.
	defer func() {
		stop()
		srv.wait()
		x.ServerLeftover = r.leftover(ctx, ss, tcpPort, sp)
	}()
	if err := r.waitListening(ctx, ss, tcpPort, srv); err != nil {
		return err
	}
	out, err := cs.run.Run(hangup, clientCmd)
	x.Output = out.Stdout
	if err != nil {
		return fmt.Errorf("running the perftest client on %s: %w", client.ep.Device, err)
	}
	if out.ExitCode != 0 {
		return perftest.Diagnose(out.Stdout, out.Stderr, out.ExitCode)
	}
	// The server finishes right after the client; give it the slack, then stop it anyway.
	select {
	case res := <-srv.done:
		srv.res = &res
	case <-time.After(sp.TimeoutSlack):
	case <-ctx.Done():
	}
	return nil
}

// leftover checks that the stopped server no longer listens. Where it still does (a host
// that neither relays signals nor hangs up a terminal), only coreutils timeout ends it, and
// the transfer says so. The check runs even when ctx was cancelled (Ctrl-C), briefly.
func (r *Runner) leftover(ctx context.Context, s *session, port int, sp perftest.Params) string {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	out, err := s.run.Run(cctx, perftest.FreePortCommand(port))
	if err != nil || out.ExitCode != 0 {
		return "" // no ss, or the device is gone: nothing more can be learnt
	}
	if used, _ := perftest.ParsePortInUse(out.Stdout); !used {
		return ""
	}
	return fmt.Sprintf("the perftest server on %s still listened on TCP port %d after it was stopped; "+
		"its coreutils timeout ends it at the latest %ds after it started", s.spec.Name, port, sp.TimeoutSeconds())
}

// result is what one command returned.
type result struct {
	out collectors.Output
	err error
}

// serverRun is the perftest server running in the background.
type serverRun struct {
	done chan result
	res  *result
}

// finished reports the server's result if it has already returned.
func (s *serverRun) finished() (result, bool) {
	if s.res != nil {
		return *s.res, true
	}
	select {
	case r := <-s.done:
		s.res = &r
		return r, true
	default:
		return result{}, false
	}
}

// wait blocks until the server's command has returned.
func (s *serverRun) wait() result {
	if s.res == nil {
		r := <-s.done
		s.res = &r
	}
	return *s.res
}

func serverFailure(out collectors.Output, err error) error {
	if err != nil {
		return fmt.Errorf("perftest server: %w", err)
	}
	return fmt.Errorf("perftest server: %w", perftest.Diagnose(out.Stdout, out.Stderr, out.ExitCode))
}

// freePort finds an out-of-band TCP port nobody listens on at the server.
func (r *Runner) freePort(ctx context.Context, s *session) (int, error) {
	first := r.Options.FirstTCPPort
	if first == 0 {
		first = perftest.DefaultTCPPort
	}
	for p := first; p < first+20; p++ {
		out, err := s.run.Run(ctx, perftest.FreePortCommand(p))
		if err != nil {
			return 0, fmt.Errorf("checking TCP port %d on %s: %w", p, s.spec.Name, err)
		}
		if out.ExitCode != 0 {
			return p, nil // no ss: take the first port and let perftest say if it is taken
		}
		used, err := perftest.ParsePortInUse(out.Stdout)
		if err != nil {
			return 0, fmt.Errorf("checking TCP port %d on %s: %w", p, s.spec.Name, err)
		}
		if !used {
			return p, nil
		}
	}
	return 0, fmt.Errorf("%w: ports %d-%d all in use on %s", perftest.ErrPortInUse, first, first+19, s.spec.Name)
}

// waitListening polls until the server listens; a server that exits first is diagnosed.
func (r *Runner) waitListening(ctx context.Context, s *session, port int, srv *serverRun) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if res, ok := srv.finished(); ok {
			return serverFailure(res.out, res.err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := s.run.Run(ctx, perftest.FreePortCommand(port))
		if err != nil {
			return err
		}
		if out.ExitCode != 0 {
			time.Sleep(time.Second) // no ss on the host: give perftest a moment instead
			return nil
		}
		if used, _ := perftest.ParsePortInUse(out.Stdout); used {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%w: the perftest server on %s did not listen on port %d within 10s", perftest.ErrTimeout, s.spec.Name, port)
}
