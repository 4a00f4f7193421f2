package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh/knownhosts"
)

// Devices behind one bastion share one connection to it: one authentication, a forwarded
// channel per device. The last device to close closes it; a later dial connects afresh, and
// so does a dial after the bastion cut the shared connection.
func TestProxyJumpSharedByDevices(t *testing.T) {
	f, jump := jumpFixture(t, true)

	const devices = 6
	clients := make([]*Client, devices)
	var wg sync.WaitGroup
	errs := make(chan error, devices)
	for i := range devices {
		wg.Go(func() {
			c, err := Dial(context.Background(), f.cfg)
			if err != nil {
				errs <- err
				return
			}
			clients[i] = c
			if _, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("dial or run via the shared jump: %v", err)
	}
	_, users, _, forwards, _ := jump.snapshot()
	if len(users) != 1 || len(forwards) != devices {
		t.Fatalf("%d devices through one bastion: %d authentications, %d forwards; want 1 and %d", devices, len(users), len(forwards), devices)
	}

	for _, c := range clients[1:] {
		c.Close()
	}
	// One device still holds the chain: another dial joins it.
	c := dial(t, f.cfg)
	if _, users, _, _, _ = jump.snapshot(); len(users) != 1 {
		t.Errorf("a dial while a device holds the chain authenticated again (%d)", len(users))
	}
	c.Close()
	clients[0].Close()
	c = dial(t, f.cfg)
	if _, users, _, _, _ = jump.snapshot(); len(users) != 2 {
		t.Errorf("after every device closed, a dial made %d authentications in all, want 2", len(users))
	}

	// The bastion cuts the connection: the next dial connects again rather than failing on it.
	jump.mu.Lock()
	for _, conn := range jump.conns {
		conn.Close()
	}
	jump.mu.Unlock()
	c.chain.Load().innermost().Wait()
	waitForgotten(t, c.chain.Load())
	c2 := dial(t, f.cfg)
	if _, err := c2.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatalf("run after the bastion cut the shared connection: %v", err)
	}
	if _, users, _, _, _ = jump.snapshot(); len(users) != 3 {
		t.Errorf("after the cut, %d authentications in all, want 3", len(users))
	}
}

// waitForgotten waits (bounded) until the pool has let go of a chain whose connection ended.
func waitForgotten(t *testing.T, ch *jumpChain) {
	t.Helper()
	for range 500 {
		jumps.mu.Lock()
		held := jumps.m[ch.key] == ch
		jumps.mu.Unlock()
		if !held {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the pool still shares a chain whose connection ended")
}

// jumpFixture is a target behind a jump test server that trusts the fixture's key; known
// says whether known_hosts knows the jump host too.
func jumpFixture(t *testing.T, known bool) (*fixture, *testServer) {
	t.Helper()
	f := setup(t)
	jump := newTestServer(t, nil)
	jump.mu.Lock()
	jump.authorized, jump.forwardOK = f.srv.authorized, true
	jump.mu.Unlock()
	f.cfg.Jump = "bastion@127.0.0.1:" + fmt.Sprint(jump.port)
	if known {
		f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), knownLine(jump), knownLine(f.srv))
	}
	return f, jump
}

// Two Closes of one client at once (a CLI open cancelled while it shuts down) release the
// shared chain once: the device still holding it keeps its connection.
func TestCloseTwiceKeepsTheSharedChain(t *testing.T) {
	f, _ := jumpFixture(t, true)
	other := dial(t, f.cfg)
	for range 40 {
		c, err := Dial(context.Background(), f.cfg)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Go(func() { c.Close() })
		wg.Go(func() { c.Close() })
		wg.Wait()
	}
	if _, err := other.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatalf("the device that held the chain lost it: %v", err)
	}
}

// With two jump hosts, the inner one ending takes the chain out of the pool, though the outer
// connection lives on: the next dial connects through both again.
func TestInnerJumpEndingIsForgotten(t *testing.T) {
	f, j1 := jumpFixture(t, true)
	j2 := newTestServer(t, nil)
	j2.mu.Lock()
	j2.authorized, j2.forwardOK = f.srv.authorized, true
	j2.mu.Unlock()
	f.cfg.Jump += ",bastion@127.0.0.1:" + fmt.Sprint(j2.port)
	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), knownLine(j1), knownLine(j2), knownLine(f.srv))
	held := dial(t, f.cfg)
	ch := held.chain.Load()
	j2.mu.Lock()
	for _, conn := range j2.conns {
		conn.Close()
	}
	j2.mu.Unlock()
	waitForgotten(t, ch)
	c := dial(t, f.cfg)
	if _, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatalf("dial after the inner jump host dropped: %v", err)
	}
}

// A device whose connect through the chain times out takes the chain out of the pool: a
// silent (half-open) bastion connection never ends by itself, and every later device would
// wait out its timeout on it.
func TestTimeoutThroughTheChainForgetsIt(t *testing.T) {
	f, jump := jumpFixture(t, true)
	held := dial(t, f.cfg)
	ch := held.chain.Load()
	// A target that accepts and never speaks: the device's handshake times out.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	cfg := f.cfg
	cfg.Port, cfg.Timeout = silent.Addr().(*net.TCPAddr).Port, 300*time.Millisecond
	_, err = Dial(context.Background(), cfg)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("dial of a silent target: %v, want a timeout", err)
	}
	if via := "via " + f.cfg.Jump; !strings.Contains(err.Error(), via) {
		t.Errorf("the error %q does not say the connection went %s", err, via)
	}
	jumps.mu.Lock()
	still := jumps.m[ch.key] == ch
	jumps.mu.Unlock()
	if still {
		t.Error("a timeout through the shared chain left it in the pool")
	}
	if _, users, _, _, _ := jump.snapshot(); len(users) != 1 {
		t.Fatalf("jump users %v before the next dial", users)
	}
	dial(t, f.cfg)
	if _, users, _, _, _ := jump.snapshot(); len(users) != 2 {
		t.Errorf("after the timeout, the next dial logged in to the bastion %d times in all, want 2", len(users))
	}
	if _, err := held.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Errorf("the device holding the forgotten chain lost it: %v", err)
	}
}

// A shared chain that stops answering (a half-open connection: the path went silent, nothing
// was reset) is closed and forgotten after its keepalives go unanswered, so the devices
// through it fail at once and the next dial connects afresh; one that answers is kept.
func TestSilentChainIsClosedByKeepalive(t *testing.T) {
	f, jump := jumpFixture(t, true)
	proxy := newSilencingProxy(t, jump.addr())
	f.cfg.Jump = "bastion@" + proxy.addr
	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(),
		knownhosts.Line([]string{knownhosts.Normalize(proxy.addr)}, jump.hostKey()), knownLine(f.srv))
	defer func(every time.Duration) { chainKeepalive = every }(chainKeepalive)
	chainKeepalive = 20 * time.Millisecond

	held := dial(t, f.cfg)
	ch := held.chain.Load()
	time.Sleep(10 * chainKeepalive) // keepalives answered: the chain stays
	if _, err := held.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatalf("a chain that answers its keepalives was lost: %v", err)
	}

	proxy.silence()
	waitForgotten(t, ch)
	if _, err := held.Run(context.Background(), "cat /etc/os-release"); err == nil {
		t.Error("a run through the silenced chain succeeded")
	}
	c := dial(t, f.cfg)
	if _, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil {
		t.Fatalf("run after the silent chain was retired: %v", err)
	}
	if _, users, _, _, _ := jump.snapshot(); len(users) != 2 {
		t.Errorf("%d logins to the bastion, want 2: one per chain", len(users))
	}
}

// silencingProxy forwards TCP to a server until silence, from which the connections it has
// drop everything both ways without closing, as a half-open path does; later connections
// forward again.
type silencingProxy struct {
	addr   string
	mu     sync.Mutex
	silent []*atomic.Bool
}

func newSilencingProxy(t *testing.T, target string) *silencingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &silencingProxy{addr: ln.Addr().String()}
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			t.Cleanup(func() { in.Close(); out.Close() })
			quiet := new(atomic.Bool)
			p.mu.Lock()
			p.silent = append(p.silent, quiet)
			p.mu.Unlock()
			go forwardUnlessSilent(out, in, quiet)
			go forwardUnlessSilent(in, out, quiet)
		}
	}()
	return p
}

func (p *silencingProxy) silence() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, q := range p.silent {
		q.Store(true)
	}
}

func forwardUnlessSilent(dst io.Writer, src io.Reader, quiet *atomic.Bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !quiet.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
