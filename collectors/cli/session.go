package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	scrapliplatform "github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/util"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

// ErrClosed is returned by Run once the session is closed, including after a cancelled or
// timed-out command (the CLI may still be printing its output, so the stream cannot be
// trusted to line up with the next command).
var ErrClosed = errors.New("cli session closed")

// Session is one interactive CLI session on a switch: scrapligo's network driver for the
// platform, typing into a PTY shell on a connection the ssh package dialled and verified.
// It is a collectors.Session; commands are sent one at a time.
type Session struct {
	platform string
	target   string
	client   *sshclient.Client
	tr       *shellTransport
	drv      *network.Driver
	al       *collectors.Allowlist
	timeout  time.Duration
	markers  []string // line prefixes that mean the CLI refused the command

	turn      chan struct{} // a CLI session is one stream: one command at a time
	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ collectors.Session = (*Session)(nil)

// DialIn opens the interactive CLI of the platform named platform in reg; a platform without
// one is an error.
func DialIn(ctx context.Context, cfg sshclient.Config, reg *collectors.Registry, platform string) (*Session, error) {
	var interactive []string
	for _, n := range reg.Names() {
		if reg.Interactive(n) {
			interactive = append(interactive, n)
		}
	}
	d, ok := reg.Get(platform)
	if !ok || !reg.Interactive(platform) {
		return nil, fmt.Errorf("cli: platform %q has no interactive CLI driver (supported: %s)",
			platform, strings.Join(interactive, ", "))
	}
	return DialPlatform(ctx, cfg, d)
}

// DialPlatform connects with the ssh package (so host keys, authentication, ~/.ssh/config and
// jump hosts behave exactly as for the exec transport), opens a PTY shell on that connection
// and runs the scrapligo driver's on-open sequence (the descriptor's CLI.SetupInput). d must
// describe an interactive CLI. Opening the CLI after the SSH handshake is bounded by
// cfg.Timeout and by sshclient.MaxOutput bytes, and ctx is honoured throughout. A failure
// after the device accepted the login is marked collectors.LoggedIn.
func DialPlatform(ctx context.Context, cfg sshclient.Config, d *collectors.Descriptor) (*Session, error) {
	platform := d.Name()
	spec, ok := d.CLI()
	if !ok {
		return nil, fmt.Errorf("cli: platform %q has no interactive CLI driver", platform)
	}
	name := spec.Scrapli
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = sshclient.DefaultTimeout
	}
	c, err := sshclient.Dial(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s CLI: %w", platform, err)
	}
	s := &Session{
		platform: platform,
		target:   c.Target(),
		client:   c,
		tr:       &shellTransport{client: c.SSHClient()},
		al:       cfg.Allowlist,
		timeout:  timeout,
		turn:     make(chan struct{}, 1),
	}
	p, err := scrapliplatform.NewPlatform(name, cfg.Host,
		options.WithCustomTransport(s.tr),
		options.WithTermWidth(termWidth),
		options.WithTimeoutOps(timeout),
		// scrapligo matches the prompt pattern over this much of the tail after every read;
		// the pattern's counted repetitions ({1,63}) make that an NFA run costing thousands of
		// instructions a byte (most of a switch's CPU on a 500 KB reply). The longest prompt
		// the EOS and NX-OS patterns accept is under 140 bytes.
		options.WithPromptSearchDepth(promptSearchDepth),
		// Each read is a chunk scrapligo copies, queues and searches for the prompt, and its
		// read loop sleeps ReadDelay (250 µs) after every one: a long reply (NX-OS's queuing
		// JSON is 2 MB on a 248-port leaf) in 8 KiB reads spent most of its time asleep.
		options.WithTransportReadSize(readSize),
		// The platform's own on-close first re-reads the prompt, which can wait a full
		// timeout on a wedged device; a goodbye needs no answer.
		options.WithNetworkOnClose(func(d *network.Driver) error {
			return d.Channel.WriteAndReturn([]byte("exit"), false)
		}),
	)
	if err == nil {
		s.drv, err = p.GetNetworkDriver()
	}
	if err != nil {
		c.Close()
		return nil, collectors.LoggedIn(fmt.Errorf("cli %s: scrapligo platform %s: %w", s.target, name, err))
	}
	s.markers = append(append([]string(nil), s.drv.FailedWhenContains...), spec.Refusals...)
	if err := s.open(ctx); err != nil {
		// The device took the login: it is reachable, its CLI is what failed.
		return nil, collectors.LoggedIn(err)
	}
	return s, nil
}

// open runs the driver's on-open sequence within the session's timeout. A deadline of ctx
// (the device's, which started before the SSH handshake and so ends before the session's
// own) is reported as what it means here, a prompt that never came, with the device's last
// output; only a cancellation is reported as one.
func (s *Session) open(ctx context.Context) error {
	start := time.Now()
	// The driver's Open takes no context: closing the connection is what interrupts it.
	octx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	stop := context.AfterFunc(octx, func() { s.client.Close() })
	err := s.drv.Open()
	interrupted := !stop()
	if err == nil && !interrupted {
		return nil
	}
	s.shutdown(false)
	switch perr := ctx.Err(); {
	case s.tr.overflowed():
		return fmt.Errorf("cli %s: opening the %s CLI: %w; last output from the device: %s",
			s.target, s.platform, ErrOutputTooLarge, s.tr.tail.quoted())
	case interrupted && errors.Is(perr, context.Canceled):
		return s.wrapCtx(perr, "opening the CLI")
	case interrupted, errors.Is(err, util.ErrTimeoutError):
		return s.noPrompt("opening the CLI", time.Since(start), perr)
	}
	return fmt.Errorf("cli %s: opening the %s CLI: %w; last output from the device: %s",
		s.target, s.platform, err, s.tr.tail.quoted())
}

// Simulated is true when the SSH server's version string carries the lab marker.
func (s *Session) Simulated() bool {
	return strings.Contains(s.client.ServerVersion(), sshclient.LabBanner)
}

// Close says "exit" when no command is in flight and closes the connection. It is safe to
// call more than once and concurrently with Run (which then fails with ErrClosed or EOF).
func (s *Session) Close() error {
	select {
	case s.turn <- struct{}{}:
		defer func() { <-s.turn }()
		return s.shutdown(true)
	default:
		return s.shutdown(false)
	}
}

// shutdown tears the session down once. Without grace the connection is closed first,
// which unblocks any read in progress.
func (s *Session) shutdown(graceful bool) error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if graceful {
			_ = s.drv.Close()
		} else {
			_ = s.client.Close()
			_ = s.drv.Channel.Close()
		}
		s.closeErr = s.client.Close()
	})
	return s.closeErr
}

// noPrompt explains a wait for the prompt that ended after waited, with what the device last
// sent: the usual cause is a prompt the platform's pattern does not match, or a device still
// printing (the bytes received say which). cause is the caller's context error that cut the
// wait short, if it did.
func (s *Session) noPrompt(while string, waited time.Duration, cause error) error {
	timeout := sshclient.ErrTimeout
	if cause != nil {
		timeout = fmt.Errorf("%w: %w", sshclient.ErrTimeout, cause)
	}
	return fmt.Errorf("cli %s: %s: %w: %w matching the %s pattern %s within %s (%d bytes received); last output from the device: %s",
		s.target, while, timeout, collectors.ErrNoPrompt, s.platform, s.drv.Channel.PromptPattern,
		waited.Round(time.Millisecond), s.tr.received(), s.tr.tail.quoted())
}

// wrapCtx wraps a cancelled or expired caller context, marking deadlines as timeouts.
func (s *Session) wrapCtx(err error, while string) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("cli %s: %s: %w: %w", s.target, while, sshclient.ErrTimeout, err)
	}
	return fmt.Errorf("cli %s: %s: %w", s.target, while, err)
}
