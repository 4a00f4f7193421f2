package sshclient

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Devices behind one bastion share one connection to it: one authentication, a forwarded
// channel per device. The last device to close closes it; a later dial connects afresh, and
// so does a dial after the bastion cut the shared connection.
func TestProxyJumpSharedByDevices(t *testing.T) {
	f := setup(t)
	jump := newTestServer(t, nil)
	jump.mu.Lock()
	jump.authorized, jump.forwardOK = f.srv.authorized, true
	jump.mu.Unlock()
	f.cfg.Jump = "bastion@127.0.0.1:" + fmt.Sprint(jump.port)
	f.cfg.KnownHostsFile = writeKnownHosts(t, t.TempDir(), knownLine(jump), knownLine(f.srv))

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
	c.chain.innermost().Wait()
	waitForgotten(t, c.chain)
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
