package sshd

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// The latency is paid per round trip: authenticating costs several of them, and a command on
// an open connection two more (channel open, exec).
func TestLatencyPerRoundTrip(t *testing.T) {
	const lat = 60 * time.Millisecond
	f := start(t, echoDevice{}, lat)
	t0 := time.Now()
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Banner+KEXINIT, key exchange reply, service accept, then at least one auth reply.
	if d := time.Since(t0); d < 4*lat {
		t.Errorf("connect and authenticate took %v, want at least 4 round trips of %v", d, lat)
	}
	t1 := time.Now()
	if out, _, _ := run(t, c, "x"); out != "ran: x\n" {
		t.Errorf("stdout %q", out)
	}
	if d := time.Since(t1); d < 2*lat || d > 6*lat {
		t.Errorf("one command took %v, want about two round trips of %v", d, lat)
	}
}

// A large answer is not slowed per byte: the flights of one answer travel together.
func TestLatencyNotPerByte(t *testing.T) {
	const lat = 40 * time.Millisecond
	a, b := net.Pipe()
	var wg sync.WaitGroup
	l := newLatencyConn(a, lat, &wg)
	msg := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB in many writes
	go func() {
		for i := 0; i < len(msg); i += 4096 {
			if _, err := l.Write([]byte(msg[i : i+4096])); err != nil {
				t.Error(err)
				return
			}
		}
		_ = l.Close()
	}()
	t0 := time.Now()
	got, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	d := time.Since(t0)
	if string(got) != msg {
		t.Fatalf("got %d bytes, reordered or lost (want %d)", len(got), len(msg))
	}
	if d < lat || d > 10*lat {
		t.Errorf("1 MiB took %v, want one latency (%v) plus transfer", d, lat)
	}
	wg.Wait() // Close flushed, then closed: the sender ended
}

// Closing the server drops what is in flight and leaves no sender behind.
func TestLatencyAbortOnServerClose(t *testing.T) {
	f := start(t, echoDevice{}, 50*time.Millisecond)
	c, err := f.dial("roceaudit", f.client)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan error, 1)
	go func() { done <- f.srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("server Close did not return")
	}
}

// Over TCP, flights that fall due together leave in one writev: still every byte, in order,
// none before its delay.
func TestLatencyBatchesInOrderOverTCP(t *testing.T) {
	const lat = 30 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	var wg sync.WaitGroup
	l := newLatencyConn(server, lat, &wg)
	var want strings.Builder
	t0 := time.Now()
	for i := range 500 { // more flights than one batch takes
		chunk := strings.Repeat(string(rune('a'+i%26)), 1+i%7)
		want.WriteString(chunk)
		if _, err := l.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	_ = l.Close()
	var first time.Duration
	buf := make([]byte, 1)
	if _, err := io.ReadFull(client, buf); err != nil {
		t.Fatal(err)
	}
	first = time.Since(t0)
	rest, err := io.ReadAll(client)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf) + string(rest); got != want.String() {
		t.Fatalf("got %d bytes, want %d in order", len(got), want.Len())
	}
	if first < lat {
		t.Errorf("the first byte arrived after %v, before the latency %v", first, lat)
	}
	wg.Wait()
}
