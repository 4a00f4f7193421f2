package sshd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Listening on 127.0.0.1:0 asks the kernel to search the ephemeral range for a free port,
// and that search slows as the ports fill: on a busy 2-core machine 10,000 such listeners
// took 2m20s (3 ms each from the first thousand on), while binding the ports one by one,
// by number, took 0.4 s. So the lab walks the same ephemeral range itself, from a random
// point (labs of other processes start elsewhere), with a cursor that only moves forward:
// a taken port costs one failed bind, once. It still gets ports the kernel would have
// handed out, and falls back to the kernel's choice when the range is exhausted.

var cursor struct {
	mu         sync.Mutex
	lo, hi     int // the ephemeral range, inclusive
	next       int
	configured bool
}

// ephemeralRange is net.ipv4.ip_local_port_range (Linux), or the IANA dynamic range.
func ephemeralRange() (int, int) {
	raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(raw)); len(f) == 2 {
			lo, err1 := strconv.Atoi(f[0])
			hi, err2 := strconv.Atoi(f[1])
			if err1 == nil && err2 == nil && 0 < lo && lo <= hi && hi < 65536 {
				return lo, hi
			}
		}
	}
	return 49152, 65535
}

// listenLoopback listens on a free TCP port of 127.0.0.1.
func listenLoopback() (net.Listener, error) {
	cursor.mu.Lock()
	defer cursor.mu.Unlock()
	if !cursor.configured {
		cursor.lo, cursor.hi = ephemeralRange()
		cursor.next = cursor.lo + rand.IntN(cursor.hi-cursor.lo+1)
		cursor.configured = true
	}
	span := cursor.hi - cursor.lo + 1
	for range span { // at most one attempt per port of the range
		port := cursor.next
		if cursor.next++; cursor.next > cursor.hi {
			cursor.next = cursor.lo
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			return ln, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) && !errors.Is(err, syscall.EACCES) {
			return nil, fmt.Errorf("sshd: listen on 127.0.0.1:%d: %w", port, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("sshd: listen on 127.0.0.1: %w", err)
	}
	return ln, nil
}
