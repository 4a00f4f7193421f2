package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors/sshclient"
)

const (
	// termType and ttySpeed are what scrapligo's standard transport requests.
	termType = "xterm"
	ttySpeed = 115200
	// termWidth is wide enough that a device's line editor does not wrap the echo of a long
	// command (scrapligo's default of 80 could, before "terminal width" takes effect).
	termWidth = 511
	// promptSearchDepth is how far back from the end of what the device sent the prompt is
	// looked for: the whole last line, with room to spare (scrapligo's default is 1,000).
	promptSearchDepth = 256
	// readSize is the most one transport read returns (scrapligo's default is 8 KiB).
	readSize = 64 << 10
	// tailSize is how much of the latest device output is kept for error messages.
	tailSize = 512
	// maxRead is what the transport hands scrapligo per command (and for the whole on-open
	// sequence) before it ends the stream: the reply cap plus room for the echo, the prompt and
	// the carriage returns scrapligo strips. Without it scrapligo's read loop queues whatever a
	// device sends, however much, until someone reads it.
	maxRead = sshclient.MaxOutput + sshclient.MaxOutput/8
)

// ErrOutputTooLarge: the device sent more than a command's output may be (the exec transport's
// cap) without its prompt; the session is closed rather than read on.
var ErrOutputTooLarge = fmt.Errorf("%w without a prompt", sshclient.ErrOutputTooLarge)

// shellTransport is a scrapligo transport.Implementation that opens a PTY shell channel on an
// ssh.Client the ssh package has already dialled, authenticated and host-key checked. It is
// scrapligo's standard transport minus the dialling: one connection, one verification.
type shellTransport struct {
	client *ssh.Client

	// Set by Open before scrapligo starts its read loop, read-only afterwards.
	sess   *ssh.Session
	stdin  io.WriteCloser
	stdout io.Reader

	alive atomic.Bool
	tail  tail
	buf   []byte // Read's, reused: scrapligo's read loop (its one caller) copies what it gets

	read atomic.Int64 // bytes since the last resetBudget
	over atomic.Bool  // read passed maxRead: the stream was ended
}

// resetBudget starts a command's allowance of maxRead bytes. What was read before (the echo
// of an earlier command, the prompt) is already queued or consumed, so the queue never holds
// more than two allowances.
func (t *shellTransport) resetBudget() { t.read.Store(0) }

// overflowed reports that the device sent more than maxRead since the last resetBudget.
func (t *shellTransport) overflowed() bool { return t.over.Load() }

// received is how many bytes arrived since the last resetBudget.
func (t *shellTransport) received() int64 { return t.read.Load() }

var _ transport.Implementation = (*shellTransport)(nil)

// Open requests a PTY and a shell, as scrapligo's standard transport does.
func (t *shellTransport) Open(a *transport.Args) error {
	sess, err := t.client.NewSession()
	if err != nil {
		return fmt.Errorf("new session: %w", err)
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return fmt.Errorf("stdin: %w", err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return fmt.Errorf("stdout: %w", err)
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: ttySpeed, ssh.TTY_OP_OSPEED: ttySpeed}
	if err := sess.RequestPty(termType, a.TermHeight, a.TermWidth, modes); err != nil {
		sess.Close()
		return fmt.Errorf("pty request: %w", err)
	}
	if err := sess.Shell(); err != nil {
		sess.Close()
		return fmt.Errorf("shell request: %w", err)
	}
	t.sess, t.stdin, t.stdout = sess, stdin, stdout
	t.alive.Store(true)
	return nil
}

// Close closes the shell channel; the connection itself belongs to the ssh.Client's owner.
func (t *shellTransport) Close() error {
	if !t.alive.CompareAndSwap(true, false) {
		return nil
	}
	if err := t.sess.Close(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func (t *shellTransport) IsAlive() bool { return t.alive.Load() }

// Read returns bytes valid until the next Read. scrapligo calls it from one goroutine, under
// its transport lock, and its first step (removing \r with bytes.ReplaceAll) copies them; a
// fresh 8 KiB per read was ~60 per 500 KB reply.
//
// Past maxRead bytes since the last resetBudget it returns io.EOF, which ends scrapligo's read
// loop: nothing more is queued, the channel's readers get a connection error (which the
// session reports as ErrOutputTooLarge), and SSH flow control stops the device once the
// channel's window is full.
func (t *shellTransport) Read(n int) ([]byte, error) {
	if t.over.Load() {
		return nil, io.EOF
	}
	if cap(t.buf) < n {
		t.buf = make([]byte, n)
	}
	b := t.buf[:n]
	n, err := t.stdout.Read(b)
	if n > 0 {
		t.tail.add(b[:n])
		if t.read.Add(int64(n)) > maxRead {
			t.over.Store(true)
			return nil, io.EOF
		}
	}
	if err != nil {
		return nil, err
	}
	return b[:n], nil
}

func (t *shellTransport) Write(b []byte) error {
	_, err := t.stdin.Write(b)
	return err
}

// tail keeps the last tailSize bytes the device sent, so a prompt that never matched can be
// shown to whoever has to fix the pattern or the device.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) add(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// quotedTailMax bounds the quoted tail in an error: 512 bytes of binary noise quote to 2 KB.
const quotedTailMax = 300

// quoted is the end of the tail as a Go string literal of at most quotedTailMax characters,
// so a device that sends noise cannot swell every error that shows its last output.
func (t *tail) quoted() string {
	b := t.String()
	q := strconv.Quote(b)
	for len(q) > quotedTailMax {
		b = b[max(1, (len(q)-quotedTailMax)/4):]
		q = strconv.Quote(b)
	}
	return q
}
