package sshd

import (
	"net"
	"sync"
	"time"
)

// latencyConn holds every flight the server sends for a fixed delay before it reaches the
// client, as a long cable would: the banner, each key-exchange and authentication reply and
// every answer wait, so a client pays for each round trip it makes, not only for commands.
// Writes return at once (the data is queued, copied) and leave in order, each delay after it
// was written; nothing is slept per byte and writes close together travel together.
type latencyConn struct {
	net.Conn
	delay time.Duration

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []flight
	queued  int   // bytes waiting, bounded by maxQueued
	err     error // the first write error, returned by every later Write
	closing bool  // Close was called: flush what is queued, then close
	done    chan struct{}
}

type flight struct {
	due  time.Time
	data []byte
}

// maxQueued bounds what one connection holds in flight; a writer past it waits (as TCP's
// window would make it), so a huge answer does not sit in memory whole.
const maxQueued = 4 << 20

// newLatencyConn starts the connection's sender; wg counts it until the connection is closed.
func newLatencyConn(c net.Conn, delay time.Duration, wg *sync.WaitGroup) *latencyConn {
	l := &latencyConn{Conn: c, delay: delay, done: make(chan struct{})}
	l.cond = sync.NewCond(&l.mu)
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.send()
	}()
	return l
}

func (l *latencyConn) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.err == nil && !l.closing && l.queued > 0 && l.queued+len(p) > maxQueued {
		l.cond.Wait()
	}
	if l.err != nil {
		return 0, l.err
	}
	if l.closing {
		return 0, net.ErrClosed
	}
	l.queue = append(l.queue, flight{due: time.Now().Add(l.delay), data: append([]byte(nil), p...)})
	l.queued += len(p)
	l.cond.Broadcast()
	return len(p), nil
}

// send releases each flight when it is due, in order; after Close it flushes the queue, then
// closes the connection, so what was sent before a close still arrives before the FIN.
func (l *latencyConn) send() {
	defer close(l.done)
	defer l.Conn.Close()
	for {
		l.mu.Lock()
		for len(l.queue) == 0 && !l.closing && l.err == nil {
			l.cond.Wait()
		}
		if l.err != nil || len(l.queue) == 0 {
			l.mu.Unlock()
			return
		}
		f := l.queue[0]
		l.queue[0] = flight{}
		l.queue = l.queue[1:]
		l.mu.Unlock()

		if d := time.Until(f.due); d > 0 {
			time.Sleep(d)
		}
		// What fell due meanwhile leaves with it, in one writev: an answer is several SSH
		// packets (data, EOF, exit-status, close) written microseconds apart, and a syscall
		// each was a visible share of the lab's CPU.
		batch, size := net.Buffers{f.data}, len(f.data)
		l.mu.Lock()
		now := time.Now()
		for len(l.queue) > 0 && len(batch) < maxBatch && !l.queue[0].due.After(now) {
			batch = append(batch, l.queue[0].data)
			size += len(l.queue[0].data)
			l.queue[0] = flight{}
			l.queue = l.queue[1:]
		}
		l.mu.Unlock()
		_, err := batch.WriteTo(l.Conn)

		l.mu.Lock()
		l.queued -= size
		if err != nil && l.err == nil {
			l.err = err
		}
		l.cond.Broadcast()
		l.mu.Unlock()
	}
}

// maxBatch bounds the flights of one writev (Linux takes up to 1024 iovecs).
const maxBatch = 64

// Close lets the queued flights arrive (within one delay), then closes the connection.
func (l *latencyConn) Close() error {
	l.mu.Lock()
	l.closing = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return nil
}

// abort drops what is in flight and closes at once (the server shutting down), and waits for
// the sending goroutine to end.
func (l *latencyConn) abort() {
	l.mu.Lock()
	if l.err == nil {
		l.err = net.ErrClosed
	}
	l.queue = nil
	l.cond.Broadcast()
	l.mu.Unlock()
	_ = l.Conn.Close() // unblocks a Write in progress
	<-l.done
}
