package sshd

import (
	"net"
	"testing"
)

// A port already listened on is skipped, not failed on, and the cursor moves past it.
func TestListenLoopbackSkipsATakenPort(t *testing.T) {
	taken, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	cursor.mu.Lock()
	cursor.next = port // the next attempt is the taken port
	cursor.mu.Unlock()
	ln, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := ln.Addr().(*net.TCPAddr)
	if got.Port == port || !got.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("listened on %v, want 127.0.0.1 and a port other than the taken %d", got, port)
	}
	lo, hi := ephemeralRange()
	if got.Port < lo || got.Port > hi {
		t.Errorf("port %d outside the ephemeral range %d-%d", got.Port, lo, hi)
	}
}
