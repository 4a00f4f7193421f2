package rdmaemu

import (
	"context"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// killedExit is the status of a process whose SSH channel went away (SIGHUP); nobody reads
// it, and its buffered stdout is lost.
const killedExit = 129

// timeoutExit is coreutils timeout's status when it had to kill the command. perftest's
// stdout is a pipe, fully buffered, so the killed process leaves no output at all.
const timeoutExit = 124

type listenKey struct {
	host string
	port int
}

// listener is a perftest server waiting for its client on (host, TCP port).
type listener struct {
	key      listenKey
	args     perfArgs
	side     side
	sessions chan *session // the one client that connects (capacity 1, sent under Emulator.mu)
}

// session is one client connected to one server. The client drives the run; the server
// waits for done and prints what finish gave it.
type session struct {
	done     chan struct{}
	doneOnce sync.Once
	out, err string
	exit     int
	hang     bool // the server never finishes on its own (a latency server whose peer died)

	gone     chan struct{} // closed when the server process ends before the run does
	goneOnce sync.Once
}

func newSession() *session { return &session{done: make(chan struct{}), gone: make(chan struct{})} }

// finish hands the server its result; only the first call counts.
func (s *session) finish(out, errText string, exit int, hang bool) {
	s.doneOnce.Do(func() {
		s.out, s.err, s.exit, s.hang = out, errText, exit, hang
		close(s.done)
	})
}

func (s *session) serverGone() { s.goneOnce.Do(func() { close(s.gone) }) }

// listen registers a server; false when the port is taken on that host.
func (e *Emulator) listen(l *listener) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, taken := e.listeners[l.key]; taken {
		return false
	}
	e.listeners[l.key] = l
	return true
}

// unlisten removes a server that stops waiting; if a client claimed it meanwhile, it returns
// that client's session (already in the channel).
func (e *Emulator) unlisten(l *listener) *session {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.listeners[l.key] == l {
		delete(e.listeners, l.key)
		return nil
	}
	return <-l.sessions
}

// claim connects a client to the server listening on (host of ip, port): perftest's server
// accepts one connection and closes its listening socket, so the listener is gone after.
func (e *Emulator) claim(ip netip.Addr, port int) (*listener, *session) {
	h := e.hostByAddr(ip)
	if h == nil {
		return nil, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.listeners[listenKey{h.Name, port}]
	if l == nil {
		return nil, nil
	}
	delete(e.listeners, l.key)
	s := newSession()
	l.sessions <- s
	return l, s
}

// runServer is `ib_write_bw|ib_write_lat ...` without a server address.
func (e *Emulator) runServer(ctx context.Context, h *linuxhost.Host, a perfArgs, deadline <-chan time.Time) (string, string, int) {
	out := startText(a)
	sd, fail := readSide(h, a)
	if fail != nil {
		return out, fail.stderr, 1
	}
	out += waitBanner
	l := &listener{key: listenKey{h.Name, a.tcpPort}, args: a, side: sd, sessions: make(chan *session, 1)}
	if !e.listen(l) {
		return out, fmt.Sprintf(listenFail, a.tcpPort), 1
	}
	var s *session
	select {
	case s = <-l.sessions:
	case <-ctx.Done():
		if s = e.unlisten(l); s != nil {
			s.serverGone()
		}
		return "", "", killedExit
	case <-deadline:
		if s = e.unlisten(l); s != nil {
			s.serverGone()
		}
		return "", "", timeoutExit
	}
	select {
	case <-s.done:
		if !s.hang {
			return out + s.out, s.err, s.exit
		}
	case <-ctx.Done():
		s.serverGone()
		return "", "", killedExit
	case <-deadline:
		s.serverGone()
		return "", "", timeoutExit
	}
	select { // hung: only the timeout or the channel closing ends it
	case <-ctx.Done():
		return "", "", killedExit
	case <-deadline:
		return "", "", timeoutExit
	}
}

// runClient is `ib_write_bw|ib_write_lat ... IP`: it connects to the server, works out the
// flow through the fabric, runs for the scaled duration moving the counters, and gives both
// sides their output.
func (e *Emulator) runClient(ctx context.Context, h *linuxhost.Host, a perfArgs, deadline <-chan time.Time) (string, string, int) {
	out := startText(a)
	c, fail := readSide(h, a)
	if fail != nil {
		return out, fail.stderr, 1
	}
	ip, _ := a.serverAddr()
	if srv := e.hostByAddr(ip); srv != nil && firewalled(srv) {
		// The SYN is dropped: connect() hangs until the timeout or the channel closing.
		select {
		case <-ctx.Done():
			return "", "", killedExit
		case <-deadline:
			return "", "", timeoutExit
		}
	}
	l, s := e.claim(ip, a.tcpPort)
	if l == nil {
		return out, fmt.Sprintf(connectFail, a.server, a.tcpPort), 1
	}
	srv, sa := l.side, l.args
	sd := newSeed(c.host, c.netdev, srv.host, srv.netdev, a.tcpPort, a.test())
	cq, sq := qpOf(sd, "client"), qpOf(sd, "server")
	mtu := min(c.activeMTU, srv.activeMTU)
	cGID, sGID := gidOrZero(c), gidOrZero(srv)
	cHead := out + testInfo(a, false, mtu) + addresses(cq, cGID, sq, sGID)
	sHead := testInfo(sa, true, mtu) + addresses(sq, sGID, cq, cGID)

	switch {
	case c.gidSet && srv.gidSet && gidIsV4(c.gid.Addr) != gidIsV4(srv.gid.Addr):
		s.finish(sHead, gidTypesFail, 1, false)
		return cHead, gidTypesFail, 1
	case !c.gidSet || !srv.gidSet: // an empty GID slot: modify QP to RTR fails on both sides
		s.finish(sHead, fmt.Sprintf(rtrFail, sq.qpn), 1, false)
		return cHead, fmt.Sprintf(rtrFail, cq.qpn), 1
	}
	f := &flow{mtu: mtu}
	if hops, err := e.route(Endpoint{c.host, c.netdev}, Endpoint{srv.host, srv.netdev}, flowSport(a.flowLabel, cq.qpn, sq.qpn)); err != nil {
		f.blackhole = err.Error()
	} else {
		f = e.evaluate(c, srv, hops)
	}
	cHead, sHead = cHead+tableHeader(a), sHead+tableHeader(sa)

	if f.blackhole != "" {
		// Every retry of the first writes times out: the transport gives up after retry_cnt.
		ap := newApplier(failureCounters(c, c.tclass>>2, f), e.hosts, e.switches)
		scnt := 128
		errText, hang := completionErr+bwRunFail, false
		if a.lat {
			scnt, errText, hang = 1, completionErr+latRunFail, true
		}
		if r := e.wait(ctx, deadline, s, ap, 0.5); r != runDone {
			return interrupted(r, s, a, cHead, sHead)
		}
		s.finish(sHead, exchangeFail, 1, hang)
		return cHead, fmt.Sprintf(errText, scnt), 1
	}

	var total *counterSet
	var table string
	var seconds float64
	if a.lat {
		lat := latencyOf(f, a.size, sd)
		seconds = float64(a.iters) * 2 * lat.avg / 1e6
		total = runCounters(f, c, srv, latTraffic(f, a.size, a.iters, seconds), sd)
		table = latRow(a, lat)
	} else {
		bw := bandwidthGbps(f, sd) * (1 - receiverStall(srv))
		seconds = float64(a.duration)
		if seconds == 0 {
			seconds = float64(a.iters) * float64(a.size) * 8 / (bw * 1e9)
		}
		t := bwTraffic(f, a.size, bw, seconds, sd)
		total = runCounters(f, c, srv, t, sd)
		peak := 0.0 // duration mode does not measure the peak
		if a.duration == 0 {
			peak = bw * (1 + 0.004*sd.frac("peak"))
			t.messages = uint64(a.iters)
		}
		table = bwRow(a, t.messages, peak, bw, bw*1e3/8/float64(a.size)) + resultLine
	}
	if r := e.wait(ctx, deadline, s, newApplier(total, e.hosts, e.switches), seconds); r != runDone {
		return interrupted(r, s, a, cHead, sHead)
	}
	s.finish(sHead+table, "", 0, false)
	return cHead + table, "", 0
}

func gidOrZero(s side) netip.Addr {
	if s.gidSet {
		return s.gid.Addr
	}
	return netip.IPv6Unspecified()
}

// How a run's wait ended.
type runEnd int

const (
	runDone     runEnd = iota
	runKilled          // the client's SSH channel closed
	runTimeout         // the client's own timeout fired
	runPeerGone        // the server process ended mid-run
)

// wait lets emulated seconds pass (scaled), stepping the counters every tick; the counters
// reach their totals only when the run completes.
func (e *Emulator) wait(ctx context.Context, deadline <-chan time.Time, s *session, ap *applier, seconds float64) runEnd {
	length := e.wall(seconds)
	start := time.Now()
	t := time.NewTicker(tick)
	defer t.Stop()
	end := time.NewTimer(length)
	defer end.Stop()
	for {
		select {
		case <-end.C:
			ap.step(1)
			return runDone
		case <-t.C:
			ap.step(float64(time.Since(start)) / float64(max(length, 1)) * 0.999)
		case <-ctx.Done():
			return runKilled
		case <-deadline:
			return runTimeout
		case <-s.gone:
			return runPeerGone
		}
	}
}

// interrupted ends a client whose run did not complete, and tells the server.
func interrupted(r runEnd, s *session, a perfArgs, cHead, sHead string) (string, string, int) {
	// The client is gone: a bandwidth server's last handshake fails; a latency server spins on
	// its receive buffer until its own timeout.
	s.finish(sHead, exchangeFail, 1, a.lat)
	switch r {
	case runKilled:
		return "", "", killedExit
	case runTimeout:
		return "", "", timeoutExit
	}
	// The server died mid-run: its QP is gone and the client's writes are never acknowledged.
	scnt := 128
	if a.lat {
		scnt = 1
	}
	tail := bwRunFail
	if a.lat {
		tail = latRunFail
	}
	return cHead, fmt.Sprintf(completionErr, scnt) + tail, 1
}

func firewalled(h *linuxhost.Host) bool {
	var drops bool
	h.Read(func(h *linuxhost.Host) { drops = h.FirewallDrops })
	return drops
}
