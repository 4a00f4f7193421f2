package sshclient

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh/knownhosts"
)

// cutFirst accepts connections on 127.0.0.1, closes the first `cut` of them at once (as a
// throttling sshd does before its banner) and forwards the rest to port.
func cutFirst(t *testing.T, cut int32, port int) (int, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var seen atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if seen.Add(1) <= cut {
				c.Close()
				continue
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c) }()
				_, _ = io.Copy(c, up)
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, &seen
}

func TestDialRetriesAConnectionCutBeforeAuthentication(t *testing.T) {
	f := setup(t)
	port, seen := cutFirst(t, 1, f.srv.port)
	cfg := f.cfg
	cfg.Port = port
	// known_hosts names the real port; the proxy's port presents the same key.
	cfg.KnownHostsFile = proxyKnownHosts(t, f, port)
	c := dial(t, cfg)
	if out, err := c.Run(context.Background(), "cat /etc/os-release"); err != nil || out.Stdout == "" {
		t.Fatalf("after a retry: %v %+v", err, out)
	}
	if n := seen.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (one cut, one retried)", n)
	}
}

func TestDialGivesUpAfterBoundedRetries(t *testing.T) {
	f := setup(t)
	port, seen := cutFirst(t, 100, f.srv.port)
	cfg := f.cfg
	cfg.Port = port
	_, err := Dial(context.Background(), cfg)
	if err == nil || !retryable(err) {
		t.Fatalf("want a connection-level error, got %v", err)
	}
	if n := seen.Load(); n != dialAttempts {
		t.Errorf("%d attempts, want %d", n, dialAttempts)
	}
}

func TestAuthFailureIsNeverRetried(t *testing.T) {
	f := setup(t)
	cfg := f.cfg
	cfg.IdentityFile, _ = writeClientKey(t, t.TempDir(), "") // a key the server does not know
	port, seen := cutFirst(t, 0, f.srv.port)
	cfg.Port = port
	cfg.KnownHostsFile = proxyKnownHosts(t, f, port)
	if _, err := Dial(context.Background(), cfg); !errors.Is(err, ErrAuth) {
		t.Fatalf("want an auth error, got %v", err)
	}
	if n := seen.Load(); n != 1 {
		t.Errorf("%d connections for a refused credential, want 1", n)
	}
}

// proxyKnownHosts knows the test server's key at the proxy's port.
func proxyKnownHosts(t *testing.T, f *fixture, port int) string {
	t.Helper()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	return writeKnownHosts(t, t.TempDir(), knownhosts.Line([]string{knownhosts.Normalize(addr)}, f.srv.hostKey()))
}
