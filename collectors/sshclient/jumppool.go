package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"
)

// The devices behind one bastion share one connection to it, as OpenSSH's ControlMaster
// would: each device's connection is a direct-tcpip channel on it (sshd's MaxSessions
// counts shell and exec sessions, not forwarded channels). Dialled per device, a fabric of
// N devices behind a bastion cost it N key exchanges and authentications, and 200 at once
// ran into sshd's MaxStartups (10:30:100 by default: unauthenticated connections past 10
// are dropped at random), so devices failed for the bastion's sake.

// jumps is the run's shared jump chains.
var jumps = jumpPool{m: map[string]*jumpChain{}}

type jumpPool struct {
	mu sync.Mutex
	m  map[string]*jumpChain
}

// jumpChain is one connected chain of jump hosts, outermost first, and how many clients
// hold it. ready is closed once the dial ended (conns or err is set).
type jumpChain struct {
	key   string
	ready chan struct{}
	conns []*ssh.Client
	err   error
	refs  int // clients holding it, plus dials waiting for it
}

// chainKey names what a chain's connections depend on: the hops and how they are
// authenticated and verified.
func chainKey(r *resolved) string {
	return fmt.Sprintf("%s|%q|%t|%q|%q|%t", hopList(r.jumps), r.IdentityFile, r.UseAgent, r.PasswordEnv, r.KnownHostsFile, r.TrustOnFirstUse)
}

// acquire returns the connected chain r's jumps name, dialling it unless a live one is
// shared already. Every successful acquire is paired with a release.
func (p *jumpPool) acquire(ctx context.Context, r *resolved, a *auth, hk *hostKeys) (*jumpChain, error) {
	for {
		ch, owner := p.join(chainKey(r))
		if owner {
			return p.dial(ctx, ch, r, a, hk)
		}
		// The owner's dial is bounded by its own timeouts; a waiter by its own as well.
		limit := r.Timeout * time.Duration(len(r.jumps))
		wait := time.NewTimer(limit)
		select {
		case <-ch.ready:
			wait.Stop()
		case <-ctx.Done():
			wait.Stop()
			p.release(ch)
			return nil, fmt.Errorf("connecting: %w", ctx.Err())
		case <-wait.C:
			p.release(ch)
			return nil, fmt.Errorf("%w: no SSH session with the jump hosts within %s", ErrTimeout, limit)
		}
		if ch.err == nil {
			return ch, nil
		}
		p.release(ch)
		if ctx.Err() == nil && (errors.Is(ch.err, context.Canceled) || errors.Is(ch.err, context.DeadlineExceeded)) {
			continue // the dial was cut by another device's context: ours may still connect
		}
		return nil, ch.err
	}
}

// join holds the pool's chain for key, making one (and the caller its owner, who dials it)
// when there is none.
func (p *jumpPool) join(key string) (ch *jumpChain, owner bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch, ok := p.m[key]
	if !ok {
		ch = &jumpChain{key: key, ready: make(chan struct{})}
		p.m[key] = ch
	}
	ch.refs++
	return ch, !ok
}

// dial connects the chain ch stands for and tells its waiters.
func (p *jumpPool) dial(ctx context.Context, ch *jumpChain, r *resolved, a *auth, hk *hostKeys) (*jumpChain, error) {
	ch.conns, ch.err = dialChain(ctx, r, a, hk)
	if ch.err != nil {
		p.forget(ch) // the next dial tries afresh
		close(ch.ready)
		p.release(ch)
		return nil, ch.err
	}
	go p.watch(ch, chainKeepalive)
	close(ch.ready)
	return ch, nil
}

// dialChain connects r's jump hosts one through the other.
func dialChain(ctx context.Context, r *resolved, a *auth, hk *hostKeys) ([]*ssh.Client, error) {
	var d net.Dialer
	dial := dialFunc(d.DialContext)
	var conns []*ssh.Client
	for _, hop := range r.jumps {
		jc, err := connect(ctx, dial, hop, r, a, hk)
		if err != nil {
			closeChain(conns)
			return nil, fmt.Errorf("via jump host %s: %w", hop, err)
		}
		conns = append(conns, jc)
		dial = jc.DialContext
	}
	return conns, nil
}

// chainKeepalive is how often a shared chain is asked whether it still answers, and
// chainMissed how many intervals it may leave a question unanswered: OpenSSH's
// ServerAliveInterval and ServerAliveCountMax, set as commonly advised (15 s, 3). A chain
// idle between a run's phases would otherwise be dropped by a firewall's idle timer, and a
// half-open one, never ending by itself, would stay shared until a device timed out on it.
var (
	chainKeepalive = 15 * time.Second
	chainMissed    = 3
)

// watch forgets a chain whose connection ended (a bastion restarted, the network cut it), so
// later dials connect again instead of failing on it. The innermost hop ends with any hop
// outside it (its transport is a channel of theirs), and a keepalive through it proves every
// hop; one left unanswered too long closes the chain, ending the devices' connections through
// it at once rather than at each one's timeout.
func (p *jumpPool) watch(ch *jumpChain, every time.Duration) {
	ended := make(chan struct{})
	go func() {
		_ = ch.innermost().Wait()
		close(ended)
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	var answer chan error // the keepalive awaiting its reply, if any
	missed := 0
	for {
		select {
		case <-ended:
			p.forget(ch)
			return
		case <-answer:
			answer, missed = nil, 0
		case <-tick.C:
			if answer == nil {
				answer = make(chan error, 1)
				go func(c *ssh.Client, reply chan<- error) {
					// Any reply, even a refusal of the request, is the chain answering.
					_, _, err := c.SendRequest("keepalive@openssh.com", true, nil)
					reply <- err
				}(ch.innermost(), answer)
				continue
			}
			if missed++; missed >= chainMissed {
				p.forget(ch)
				_ = closeChain(ch.conns) // ends the innermost hop, hence the watch
			}
		}
	}
}

// chainSuspect is a device's connect through a chain failing in a way a dead chain would
// cause: a timeout, or the stream cut. A half-open connection (a path gone silent, a bastion
// rebooted without a reset) never ends by itself, and every later device would wait out
// its timeout on it. A refused target or a credential error leaves the chain in use.
func chainSuspect(err error) bool {
	return errors.Is(err, ErrTimeout) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET)
}

// forget takes ch out of the pool if it is still the chain there.
func (p *jumpPool) forget(ch *jumpChain) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m[ch.key] == ch {
		delete(p.m, ch.key)
	}
}

// release drops one hold on ch; the last one closes its connections.
func (p *jumpPool) release(ch *jumpChain) error {
	p.mu.Lock()
	ch.refs--
	last := ch.refs == 0
	if last && p.m[ch.key] == ch {
		delete(p.m, ch.key)
	}
	p.mu.Unlock()
	if !last {
		return nil
	}
	return closeChain(ch.conns)
}

// closeChain closes a chain's connections innermost first.
func closeChain(conns []*ssh.Client) error {
	var errs []error
	for i := len(conns) - 1; i >= 0; i-- {
		if err := conns[i].Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// hopList names a chain's jump hosts, outermost first, as -J would.
func hopList(hops []Endpoint) string {
	names := make([]string, len(hops))
	for i, h := range hops {
		names[i] = h.String()
	}
	return strings.Join(names, ",")
}

// innermost is the connection a device's own connection goes through.
func (ch *jumpChain) innermost() *ssh.Client { return ch.conns[len(ch.conns)-1] }
