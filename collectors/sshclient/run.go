package sshclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
)

// MaxOutput caps what is kept of each of stdout and stderr; the rest is read and dropped.
const MaxOutput = 16 << 20

// TruncationMarker ends a stream that exceeded MaxOutput.
const TruncationMarker = "\n[roceaudit: output truncated at 16 MiB]\n"

// Run sends one allowlisted command in its own session. Refusals happen before anything is
// sent. A non-zero exit is an Output, not an error; cancellation or cfg.Timeout kills the
// session and returns a wrapped context error.
func (c *Client) Run(ctx context.Context, command string) (collectors.Output, error) {
	if c.cfg == nil || c.cfg.Allowlist == nil || !c.cfg.Allowlist.Allows(command) {
		return collectors.Output{}, fmt.Errorf("ssh %s: %q: %w", c.target, command, collectors.ErrNotAllowed)
	}
	if c.conn == nil {
		return collectors.Output{}, fmt.Errorf("ssh: %q: client is not connected (use Dial)", command)
	}
	limit := collectors.CommandLimit(ctx, command, c.cfg.Timeout)
	if c.cfg.Sudo && !strings.HasPrefix(command, collectors.SudoPrefix) {
		command = collectors.SudoPrefix + command
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return collectors.Output{}, c.ctxErr(parent, ctx, command, "waiting for a session", limit)
	}
	defer func() { <-c.sem }()

	sess, err := c.conn.NewSession()
	if err != nil {
		return collectors.Output{}, fmt.Errorf("ssh %s: %q: new session: %w", c.target, command, err)
	}
	full := make(chan struct{}, 1)
	stdout, stderr := capped{full: full}, capped{full: full}
	sess.Stdout, sess.Stderr = &stdout, &stderr
	hangup := collectors.HangupWanted(parent)
	if hangup {
		// No echo and no output processing: the output stays byte for byte what the command
		// wrote (a terminal merges stderr into stdout, which is all it changes).
		modes := ssh.TerminalModes{ssh.ECHO: 0, ssh.OPOST: 0}
		if err := sess.RequestPty("dumb", 24, 200, modes); err != nil {
			sess.Close()
			return collectors.Output{}, fmt.Errorf("ssh %s: %q: terminal request: %w", c.target, command, err)
		}
	}
	if err := sess.Start(command); err != nil {
		sess.Close()
		return collectors.Output{}, fmt.Errorf("ssh %s: %q: start: %w", c.target, command, startError(err))
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()

	select {
	case err = <-done:
		sess.Close()
	case <-ctx.Done():
		stopSession(sess, done)
		return collectors.Output{}, c.ctxErr(parent, ctx, command, "running", limit)
	case <-full:
		// A flood: stopped now rather than read to the limit. Its output is not returned:
		// the session's copies may still be writing it.
		stopSession(sess, done)
		return collectors.Output{}, fmt.Errorf("ssh %s: %q: %w: the command was stopped", c.target, command, ErrOutputTooLarge)
	}

	out := collectors.Output{Stdout: stdout.String(), Stderr: stderr.String()}
	var exitErr *ssh.ExitError
	var missing *ssh.ExitMissingError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		out.ExitCode = exitErr.ExitStatus()
		if exitErr.Signal() != "" && out.ExitCode == 0 {
			out.ExitCode = 128 + signalNumber(exitErr.Signal())
		}
	case errors.As(err, &missing):
		return out, fmt.Errorf("ssh %s: %q: ended without an exit status: %w", c.target, command, err)
	default:
		return out, fmt.Errorf("ssh %s: %q: %w", c.target, command, err)
	}
	return out, nil
}

// stopGrace is how long a command has to exit on TERM before it gets KILL.
const stopGrace = time.Second

// stopSession ends a command that is still running: TERM first (sudo relays it to its child,
// where KILL would kill sudo alone), KILL if it has not exited within stopGrace, then the
// channel is closed without waiting further, so a server that ignores signals (sshd refuses
// them for root logins) cannot hold the caller. Closing a session that has a terminal hangs
// up its process group, which stops what the signals could not reach.
func stopSession(sess *ssh.Session, done <-chan error) {
	_ = sess.Signal(ssh.SIGTERM)
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		_ = sess.Signal(ssh.SIGKILL)
	}
	sess.Close()
}

func (c *Client) ctxErr(parent, ctx context.Context, command, while string, limit time.Duration) error {
	if perr := parent.Err(); perr != nil {
		if errors.Is(perr, context.DeadlineExceeded) {
			return fmt.Errorf("ssh %s: %q: %s: %w: %w", c.target, command, while, ErrTimeout, perr)
		}
		return fmt.Errorf("ssh %s: %q: %s: %w", c.target, command, while, perr)
	}
	return fmt.Errorf("ssh %s: %q: %s: %w after %s: %w", c.target, command, while, ErrTimeout, limit, ctx.Err())
}

// signalNumber maps the POSIX signals RFC 4254 names; others count as 127 (exit 255).
func signalNumber(sig string) int {
	n := map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "ABRT": 6, "FPE": 8,
		"KILL": 9, "SEGV": 11, "PIPE": 13, "ALRM": 14, "TERM": 15, "USR1": 10, "USR2": 12}[sig]
	if n == 0 {
		return 127
	}
	return n
}

// capped keeps the first MaxOutput bytes and notes whether more arrived. The bytes wait in
// pooled chunks and become one string of their exact size once: a strings.Builder doubling
// to fit was 0.65 GB of the 2.7 GB a 1,000-device 8-rail audit allocated (it received 0.41
// GB), and each output string kept the slack of its last doubling while it was parsed.
type capped struct {
	head      string // what String made of the bytes before the chunks
	first     *[]byte
	more      []*[]byte // the chunks after first: an output longer than one
	n         int       // bytes kept in all
	truncated bool
	full      chan<- struct{} // told once, when the output passes MaxOutput
}

const cappedChunk = 16 << 10

var cappedChunks = sync.Pool{New: func() any { b := make([]byte, 0, cappedChunk); return &b }}

func (w *capped) Write(p []byte) (int, error) {
	written := len(p)
	if room := MaxOutput - w.n; len(p) > room {
		p = p[:room]
		if !w.truncated && w.full != nil {
			select {
			case w.full <- struct{}{}:
			default:
			}
		}
		w.truncated = true
	}
	w.n += len(p)
	for len(p) > 0 {
		last := w.first
		if len(w.more) > 0 {
			last = w.more[len(w.more)-1]
		}
		if last == nil || len(*last) == cappedChunk {
			last = cappedChunks.Get().(*[]byte)
			if w.first == nil {
				w.first = last
			} else {
				w.more = append(w.more, last)
			}
		}
		k := min(len(p), cappedChunk-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	return written, nil
}

// drain writes a chunk to b and puts it back in the pool.
func drain(b *strings.Builder, c *[]byte) {
	b.Write(*c)
	*c = (*c)[:0]
	cappedChunks.Put(c)
}

// copyBuffers are the buffers sessions read their output through. x/crypto/ssh copies each
// session's stdout and stderr with io.Copy, which allocates 32 KiB per stream unless the
// destination reads for itself: two per command, 1.3 GB for a 1,000-device audit in its
// memory profile, and the GC time that goes with it.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// ReadFrom makes io.Copy read into a pooled buffer rather than a new one.
func (w *capped) ReadFrom(r io.Reader) (int64, error) { return copyPooled(w, r) }

// copyPooled copies r to w through a buffer from copyBuffers; w's Write never fails.
func copyPooled(w io.Writer, r io.Reader) (int64, error) {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	var total int64
	for {
		n, err := r.Read(*bp)
		if n > 0 {
			_, _ = w.Write((*bp)[:n])
			total += int64(n)
		}
		if errors.Is(err, io.EOF) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// String is the output kept, with TruncationMarker after it if more arrived.
func (w *capped) String() string {
	if w.first != nil {
		var b strings.Builder
		b.Grow(w.n)
		b.WriteString(w.head)
		drain(&b, w.first)
		for _, c := range w.more {
			drain(&b, c)
		}
		w.first, w.more, w.head = nil, nil, b.String()
	}
	if w.truncated {
		return w.head + TruncationMarker
	}
	return w.head
}
