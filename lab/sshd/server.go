// Package sshd is the lab's SSH server: one listener per emulated device on 127.0.0.1,
// public-key auth for the lab's client key only, and "exec" requests answered by the device.
// Devices with an interactive CLI (switches) implement Shell as well; the server core does not
// change for them.
package sshd

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// Version is the server's identification string. The auditor reads it to mark a report as
// simulated, so it must not change casually.
const Version = "SSH-2.0-roceaudit-lab"

// Device answers commands like a shell would.
type Device interface {
	// Exec runs one command line. ctx ends when the client goes away or the server closes,
	// so long-running emulations (a perftest server waiting for its client) can stop.
	Exec(ctx context.Context, cmd string) (stdout, stderr string, exit int)
}

// Shell is implemented by devices with an interactive CLI (pty-req + shell). Shell reads the
// user's keystrokes from rw and writes the screen to it until the session ends.
type Shell interface {
	Shell(ctx context.Context, rw io.ReadWriter, term string) (exit int)
}

// Config is one device's server.
type Config struct {
	Device    Device
	HostKey   ssh.Signer
	ClientKey ssh.PublicKey // the only key accepted
	User      string        // the only user accepted; "" accepts any
	// Latency holds every write of the server for this long before the client gets it, so
	// each round trip (key exchange, authentication, each request) costs it once.
	Latency time.Duration
	// MaxConns bounds concurrent connections; further ones are closed at once (default 64).
	MaxConns int
	// Fault makes the device misbehave (see Fault); the zero value behaves.
	Fault Fault
}

// handshakeTimeout bounds how long a client may take to authenticate.
const handshakeTimeout = 10 * time.Second

// Server serves one device until Close.
type Server struct {
	cfg    Config
	ssh    *ssh.ServerConfig
	ln     net.Listener
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool

	closeOnce sync.Once
	closeErr  error
	port      int // set when refusing: the listener is closed
}

// Start listens on a free port of 127.0.0.1 and serves in the background. When it returns,
// the device accepts connections.
func Start(cfg Config) (*Server, error) {
	if cfg.Device == nil || cfg.HostKey == nil || cfg.ClientKey == nil {
		return nil, errors.New("sshd: Device, HostKey and ClientKey are required")
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 64
	}
	want := cfg.ClientKey.Marshal()
	sc := &ssh.ServerConfig{
		ServerVersion: Version,
		PublicKeyCallback: func(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if cfg.Fault == FaultAuthFail {
				return nil, errors.New("authentication refused")
			}
			if cfg.User != "" && meta.User() != cfg.User {
				return nil, fmt.Errorf("user %q is not allowed", meta.User())
			}
			if subtle.ConstantTimeCompare(key.Marshal(), want) != 1 {
				return nil, fmt.Errorf("public key of %q is not authorized", meta.User())
			}
			return &ssh.Permissions{}, nil
		},
	}
	sc.AddHostKey(cfg.HostKey)

	ln, err := listenLoopback()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, ssh: sc, ln: ln, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}
	if cfg.Fault == FaultRefuse {
		// The port is known (it is in the inventory) but nothing listens: connects are refused.
		s.port = s.Port()
		_ = ln.Close()
		return s, nil
	}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Port is the TCP port the server listens on (or, refusing, would).
func (s *Server) Port() int {
	if s.port != 0 {
		return s.port
	}
	return s.ln.Addr().(*net.TCPAddr).Port
}

// Close stops accepting, drops every connection, ends running commands and waits for every
// goroutine of the server to finish.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		if err := s.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			s.closeErr = fmt.Errorf("sshd: close listener: %w", err)
		}
		s.mu.Lock()
		s.closing = true
		conns := make([]net.Conn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.mu.Unlock()
		for _, c := range conns {
			if l, ok := c.(*latencyConn); ok {
				l.abort() // shutting down: what is still in flight is dropped
			} else {
				_ = c.Close()
			}
		}
		s.wg.Wait()
	})
	return s.closeErr
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || s.ctx.Err() != nil {
				return
			}
			// A transient accept error (EMFILE...): back off briefly rather than spin.
			select {
			case <-time.After(50 * time.Millisecond):
				continue
			case <-s.ctx.Done():
				return
			}
		}
		if s.cfg.Latency > 0 {
			c = newLatencyConn(c, s.cfg.Latency, &s.wg)
		}
		if !s.track(c) {
			_ = c.Close()
			continue
		}
		s.wg.Add(1)
		go s.handleConn(c)
	}
}

// track registers a connection unless the server is closing or full.
func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || len(s.conns) >= s.cfg.MaxConns {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) handleConn(c net.Conn) {
	defer s.wg.Done()
	defer s.untrack(c)
	defer c.Close()

	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	sconn, chans, reqs, err := ssh.NewServerConn(c, s.ssh)
	if err != nil {
		return // failed auth or a client that went away: nothing to serve
	}
	defer sconn.Close()
	_ = c.SetDeadline(time.Time{})

	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ssh.DiscardRequests(reqs)
	}()

	var sessions sync.WaitGroup
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels are supported")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		sessions.Add(1)
		go func() {
			defer sessions.Done()
			s.session(ch, creqs, func() { _ = c.Close() })
		}()
	}
	sessions.Wait()
}

// session serves one channel: a single exec (or shell), then exit-status and close. It keeps
// draining requests until the channel is gone, so the connection never stalls on them and a
// client that leaves mid-command cancels the command's context.
func (s *Server) session(ch ssh.Channel, reqs <-chan *ssh.Request, cut func()) {
	defer ch.Close()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()

	shell, canShell := s.cfg.Device.(Shell)
	started := false
	term := ""
	var running sync.WaitGroup
	defer running.Wait()
	for req := range reqs {
		switch {
		case req.Type == "exec" && !started:
			var p struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &p); err != nil {
				_ = req.Reply(false, nil)
				continue
			}
			started = true
			_ = req.Reply(true, nil)
			// Run aside so this loop notices the client leaving (reqs closes) and cancels.
			running.Add(1)
			withPTY := term != ""
			go func() {
				defer running.Done()
				s.exec(ctx, ch, p.Command, withPTY, cut)
			}()
		case req.Type == "signal" && started:
			// As OpenSSH delivers a signal to the command (for a non-root login): TERM, KILL
			// and the like end it here.
			cancel()
		case req.Type == "pty-req" && !started:
			var p struct {
				Term                         string
				Columns, Rows, Width, Height uint32
				Modes                        string
			}
			if err := ssh.Unmarshal(req.Payload, &p); err != nil {
				_ = req.Reply(false, nil)
				continue
			}
			term = p.Term
			if term == "" {
				term = "dumb"
			}
			_ = req.Reply(true, nil)
		case req.Type == "shell" && canShell && !started:
			started = true
			_ = req.Reply(true, nil)
			running.Add(1)
			go func() {
				defer running.Done()
				var rw io.ReadWriter = ch
				if s.cfg.Fault != FaultNone {
					rw = &faultyShell{ctx: ctx, fault: s.cfg.Fault, rw: ch, cut: cut}
				}
				exit := shell.Shell(ctx, rw, term)
				finish(ch, exit)
			}()
		default:
			// env, window-change, a second exec...: politely refused.
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
		}
	}
	cancel()
}

// exec answers one command (the connection's latency delays the answer). On a terminal, as
// on a real host, what the command writes to stderr arrives on the same stream as stdout.
func (s *Server) exec(ctx context.Context, ch ssh.Channel, cmd string, withPTY bool, cut func()) {
	if exit, handled := s.faultyExec(ctx, cmd, func(b []byte) error { _, err := ch.Write(b); return err }, cut); handled {
		finish(ch, exit)
		return
	}
	stdout, stderr, exit := s.cfg.Device.Exec(ctx, cmd)
	if withPTY {
		stdout, stderr = stdout+stderr, ""
	}
	_, _ = io.Copy(ch, bytes.NewBufferString(stdout))
	_, _ = io.Copy(ch.Stderr(), bytes.NewBufferString(stderr))
	finish(ch, exit)
}

// finish ends a session the way OpenSSH does: EOF, exit-status, close.
func finish(ch ssh.Channel, exit int) {
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(exit)}))
	_ = ch.Close()
}
