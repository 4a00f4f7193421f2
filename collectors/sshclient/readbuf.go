package sshclient

import (
	"bufio"
	"net"
)

// readBufferSize is what one read from the socket may bring in. x/crypto/ssh reads through
// a 4 KiB bufio.Reader of its own, so a command's answer (an 8-rail host's is ~136 kB,
// already queued in the socket when it is read) took one read syscall per 4 KiB.
const readBufferSize = 32 << 10

// bufferedConn is a connection whose reads are served from a larger buffer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func newBufferedConn(c net.Conn) *bufferedConn {
	return &bufferedConn{Conn: c, r: bufio.NewReaderSize(c, readBufferSize)}
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
