package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
)

// Client is one SSH connection to a device (through its jump hosts, if any). It is a
// collectors.Runner and safe for concurrent use.
type Client struct {
	cfg  *resolved
	conn *ssh.Client
	// chain is the jump hosts it goes through, shared (nil: none). Close takes it once: two
	// Closes at once (a CLI open cancelled as it shuts down) must not release it twice.
	chain  atomic.Pointer[jumpChain]
	sem    chan struct{}
	target string
	// noBatch is set once the device's shell failed a batch's markers: RunBatch then sends
	// one command per session.
	noBatch atomic.Bool
	// cutShortLists counts the lists in a row that ended without an exit status before
	// their last marker (see runPart).
	cutShortLists atomic.Int32
}

var _ collectors.Runner = (*Client)(nil)

// dialFunc opens a stream to addr: a TCP dial, or a direct-tcpip channel through a jump.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dial connects and authenticates, through cfg.Jump when set. Each hop's TCP connect plus
// handshake is bounded by cfg.Timeout and by ctx. A connection-level failure (refused, or
// closed before authentication, as sshd does past MaxStartups) is retried with backoff; no
// command has been sent then, so nothing is ever sent twice.
func Dial(ctx context.Context, cfg Config) (*Client, error) {
	var err error
	for attempt := 0; ; attempt++ {
		var c *Client
		if c, err = dialOnce(ctx, cfg); err == nil || attempt+1 >= dialAttempts || !retryable(err) {
			return c, err
		}
		t := time.NewTimer(dialBackoff << attempt)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, err
		}
	}
}

// dialAttempts and dialBackoff bound the retries of a refused or cut connection: three
// tries over about a second, long enough for a restarting or throttling sshd.
const (
	dialAttempts = 3
	dialBackoff  = 300 * time.Millisecond
)

// retryable is a failure before any credential was judged: the server may take the next try.
func retryable(err error) bool {
	return errors.Is(err, ErrConnRefused) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
}

func dialOnce(ctx context.Context, cfg Config) (*Client, error) {
	r, err := resolve(cfg)
	if err != nil {
		return nil, err
	}
	hk, err := newHostKeys(r.KnownHostsFile, r.TrustOnFirstUse)
	if err != nil {
		return nil, err
	}
	a, err := buildAuth(r)
	if err != nil {
		return nil, fmt.Errorf("ssh %s: %w", r.target, err)
	}
	// The agent is only needed during authentication.
	defer a.close()

	c := &Client{cfg: r, sem: make(chan struct{}, r.MaxSessions), target: r.target.String()}
	var d net.Dialer
	dial := dialFunc(d.DialContext)
	if len(r.jumps) > 0 {
		ch, err := jumps.acquire(ctx, r, a, hk)
		if err != nil {
			return nil, fmt.Errorf("ssh %s: %w", r.target, err)
		}
		c.chain.Store(ch)
		dial = ch.innermost().DialContext
	}
	conn, err := connect(ctx, dial, r.target, r, a, hk)
	if err != nil {
		if ch := c.chain.Load(); ch != nil {
			if chainSuspect(err) {
				jumps.forget(ch) // it may be dead without having said so: the next dial connects anew
			}
			// A shared chain's death reaches the device as a bare EOF or timeout: say which
			// hosts it went through.
			err = fmt.Errorf("through the shared connection via %s: %w", hopList(r.jumps), err)
		}
		c.Close()
		return nil, fmt.Errorf("ssh %s: %w", r.target, err)
	}
	c.conn = conn
	return c, nil
}

// connect dials and handshakes one hop within r.Timeout.
func connect(ctx context.Context, dial dialFunc, e Endpoint, r *resolved, a *auth, hk *hostKeys) (*ssh.Client, error) {
	hctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	addr := e.addr()
	nc, err := dial(hctx, "tcp", addr)
	if err != nil {
		return nil, classify(ctx, hctx, r, err, nil, a)
	}
	// x/crypto's handshake has no context: closing the socket is what interrupts it.
	stop := context.AfterFunc(hctx, func() { nc.Close() })
	var hostErr error
	cc := &ssh.ClientConfig{
		User:              e.User,
		Auth:              a.methods,
		HostKeyCallback:   hk.callback(&hostErr),
		HostKeyAlgorithms: hk.algorithms(addr),
	}
	sc, chans, reqs, err := ssh.NewClientConn(newBufferedConn(nc), addr, cc)
	if !stop() {
		if err == nil {
			sc.Close()
			err = hctx.Err()
		}
		return nil, classify(ctx, hctx, r, err, hostErr, a)
	}
	if err != nil {
		nc.Close()
		return nil, classify(ctx, hctx, r, err, hostErr, a)
	}
	return ssh.NewClient(sc, chans, reqs), nil
}

// classify maps a dial or handshake failure onto the package's sentinels.
func classify(parent, hctx context.Context, r *resolved, err, hostErr error, a *auth) error {
	var oce *ssh.OpenChannelError
	var ne net.Error
	switch {
	case hostErr != nil:
		return hostErr
	case parent.Err() != nil:
		if errors.Is(parent.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("%w: connecting: %w", ErrTimeout, parent.Err())
		}
		return fmt.Errorf("connecting: %w", parent.Err())
	case errors.Is(hctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w: no SSH session within %s", ErrTimeout, r.Timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w: %w", ErrConnRefused, err)
	case errors.As(err, &oce) && oce.Reason == ssh.ConnectionFailed:
		return fmt.Errorf("%w: jump host could not connect: %w", ErrConnRefused, err)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	case strings.Contains(err.Error(), "unable to authenticate"),
		strings.Contains(err.Error(), "no supported methods remain"):
		return fmt.Errorf("%w: %w%s", ErrAuth, err, a.noteText())
	default:
		return err
	}
}

// ServerVersion is the server's SSH identification string, e.g. "SSH-2.0-OpenSSH_9.6".
func (c *Client) ServerVersion() string {
	if c.conn == nil {
		return ""
	}
	return string(c.conn.ServerVersion())
}

// Close closes the connection, and the jump hosts it went through once no other connection
// goes through them.
func (c *Client) Close() error {
	var errs []error
	if c.conn != nil {
		if err := c.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	if ch := c.chain.Swap(nil); ch != nil {
		errs = append(errs, jumps.release(ch))
	}
	return errors.Join(errs...)
}
