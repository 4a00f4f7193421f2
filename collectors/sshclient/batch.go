package sshclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/collectors"
)

var _ collectors.BatchRunner = (*Client)(nil)

// RunBatch sends the allowlisted commands of cmds in one session, as one sh list (see
// batchList), and answers each as Run would: the same refusals, sudo prefix, output caps
// and exit codes. cfg.Timeout bounds each command, not the batch: a command that stalls is
// stopped with its session and the commands after it go on in a new one. A device whose
// shell does not give back the markers (not a POSIX shell) gets each command in its own
// session, from then on.
func (c *Client) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	outs, errs := make([]collectors.Output, len(cmds)), make([]error, len(cmds))
	var pending []int
	for i, cmd := range cmds {
		if c.cfg == nil || c.cfg.Allowlist == nil || !c.cfg.Allowlist.Allows(cmd) {
			errs[i] = fmt.Errorf("ssh %s: %q: %w", c.target, cmd, collectors.ErrNotAllowed)
			continue
		}
		pending = append(pending, i)
	}
	// A terminal merges stderr into stdout: such commands keep their own sessions.
	if c.conn == nil || len(pending) < 2 || collectors.HangupWanted(ctx) || c.noBatch.Load() {
		c.runEach(ctx, cmds, pending, outs, errs)
		return outs, errs
	}
	// Lists are cut to maxListBytes (an exec request is one SSH packet, and servers bound
	// packets at 32-256 KiB); the pieces run at once, each in its own session.
	var wg sync.WaitGroup
	for _, part := range cutList(cmds, pending, maxListBytes) {
		wg.Go(func() { c.runPart(ctx, cmds, part, outs, errs) })
	}
	wg.Wait()
	return outs, errs
}

// maxCutShortLists is how many lists in a row may end without an exit status, and short of
// their markers, before the device gets one session per command.
const maxCutShortLists = 2

// maxListBytes bounds one batch's command line, well under the 32 KiB packets every SSH
// server must take (RFC 4253 6.1: 35,000 bytes with headers and padding).
const maxListBytes = 24 << 10

// listBase is what batchList adds once: the wrapper, listHead and listTail (neither holds a
// quote for writeQuoted to escape).
var listBase = len("exec /bin/sh -c ''") + len(listHead) + len(listTail)

// listOverhead is what batchList adds per command: its markers, and sudo when configured.
const listOverhead = len("; echo  $?; echo  >&2; ") + 2*len("roceaudit-") + 2*32 + len(collectors.SudoPrefix)

// cutList splits pending (indexes into cmds) into runs whose lists stay within limit; a
// command longer than limit on its own goes alone.
func cutList(cmds []string, pending []int, limit int) [][]int {
	var out [][]int
	size := 0
	for _, i := range pending {
		n := quotedLen(cmds[i]) + listOverhead
		if len(out) == 0 || size+n > limit {
			out = append(out, nil)
			size = listBase
		}
		out[len(out)-1] = append(out[len(out)-1], i)
		size += n
	}
	return out
}

// runPart runs the commands of pending (indexes into cmds) as lists until each is answered.
func (c *Client) runPart(ctx context.Context, cmds []string, pending []int, outs []collectors.Output, errs []error) {
	// Every session ends at least one pending command (answered, stalled or handed to
	// runEach), so this loop runs at most len(cmds) times.
	for range len(cmds) {
		if len(pending) == 0 {
			return
		}
		sent, limits := make([]string, len(pending)), make([]time.Duration, len(pending))
		for j, i := range pending {
			sent[j], limits[j] = c.withSudo(cmds[i]), collectors.CommandLimit(ctx, cmds[i], c.cfg.Timeout)
		}
		b := c.runList(ctx, sent, limits)
		for j := range b.answered {
			outs[pending[j]] = b.outs[j]
		}
		switch {
		case b.err != nil: // the session did not start, or ctx ended: the rest shares the error
			for _, i := range pending[b.answered:] {
				errs[i] = fmt.Errorf("ssh %s: %q: %w", c.target, c.withSudo(cmds[i]), b.err)
			}
			return
		case b.stalled:
			i := pending[b.answered]
			errs[i] = fmt.Errorf("ssh %s: %q: running: %w after %s: %w", c.target, c.withSudo(cmds[i]), ErrTimeout, limits[b.answered], context.DeadlineExceeded)
			pending = pending[b.answered+1:]
			if collectors.Guessed(ctx, cmds[i]) {
				pending = c.dropGuesses(ctx, cmds, pending, errs, cmds[i])
			}
		case b.flooded:
			i := pending[b.answered]
			errs[i] = fmt.Errorf("ssh %s: %q: %w: the command was stopped", c.target, c.withSudo(cmds[i]), ErrOutputTooLarge)
			pending = pending[b.answered+1:]
		case b.cutShort:
			// Once, the transport failed, not the shell: each command left goes in its own
			// session (on a dead connection each fails at once with the transport's error), and
			// later lists are still batched. A second list cut short on a connection that still
			// opens sessions is the server's way, not a mishap (an sshd that never sends an
			// exit status, before a shell that gives no markers): batching stops there.
			if c.cutShortLists.Add(1) >= maxCutShortLists {
				c.noBatch.Store(true)
			}
			c.runEach(ctx, cmds, pending[b.answered:], outs, errs)
			return
		case b.answered < len(pending): // a clean end, its markers missing or malformed
			c.noBatch.Store(true)
			c.runEach(ctx, cmds, pending[b.answered:], outs, errs)
			return
		default:
			c.cutShortLists.Store(0)
			pending = nil
		}
	}
}

// dropGuesses answers the guesses of pending (indexes into cmds) with an error rather than
// send them after the guess stalled, which cost the batch GuessStall already: a wedged NIC
// would stall each of its commands in turn. The rest of pending is returned, to be sent.
func (c *Client) dropGuesses(ctx context.Context, cmds []string, pending []int, errs []error, stalled string) []int {
	var rest []int
	for _, i := range pending {
		if !collectors.Guessed(ctx, cmds[i]) {
			rest = append(rest, i)
			continue
		}
		errs[i] = fmt.Errorf("ssh %s: %q: %w (%q)", c.target, c.withSudo(cmds[i]), collectors.ErrGuessNotSent, c.withSudo(stalled))
	}
	return rest
}

// runEach sends cmds[i] for each i of which in its own session. As in a list, once a guess
// stalls the guesses after it are not sent.
func (c *Client) runEach(ctx context.Context, cmds []string, which []int, outs []collectors.Output, errs []error) {
	for k, i := range which {
		outs[i], errs[i] = c.Run(ctx, cmds[i])
		if collectors.Guessed(ctx, cmds[i]) && errors.Is(errs[i], ErrTimeout) && ctx.Err() == nil {
			c.runEach(ctx, cmds, c.dropGuesses(ctx, cmds, which[k+1:], errs, cmds[i]), outs, errs)
			return
		}
	}
}

func (c *Client) withSudo(cmd string) string {
	if c.cfg.Sudo && !strings.HasPrefix(cmd, collectors.SudoPrefix) {
		return collectors.SudoPrefix + cmd
	}
	return cmd
}

// listRun is one session of a batch: the first answered commands came back whole.
type listRun struct {
	outs     []collectors.Output
	answered int
	stalled  bool  // command #answered ran past its limit and was stopped
	flooded  bool  // command #answered passed MaxOutput and was stopped
	err      error // the session failed to start, or ctx ended
	cutShort bool  // the session ended without an exit status before command #answered did
}

// limitAfter is how long the list may go on once seen commands ended: the next command's
// limit, or once all are answered the command timeout, for the shell's exit.
func (c *Client) limitAfter(limits []time.Duration, seen int) time.Duration {
	if seen < len(limits) {
		return limits[seen]
	}
	return c.cfg.Timeout
}

// runList runs cmds (already prefixed) as one list in one session, each command given at
// most its limit.
func (c *Client) runList(ctx context.Context, cmds []string, limits []time.Duration) listRun {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return listRun{err: fmt.Errorf("waiting for a session: %w", ctx.Err())}
	}
	defer func() { <-c.sem }()

	sess, err := c.conn.NewSession()
	if err != nil {
		return listRun{err: fmt.Errorf("new session: %w", err)}
	}
	// stdin stays open while the list runs: its end is what stops the list's commands on
	// the host (see listHead).
	stdin, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return listRun{err: fmt.Errorf("stdin: %w", err)}
	}
	token := newToken()
	tick := make(chan struct{}, 1)
	stdout, stderr := newSplitter(token, true, tick), newSplitter(token, false, nil)
	full := make(chan struct{}, 1)
	stdout.cur.full, stderr.cur.full = full, full
	sess.Stdout, sess.Stderr = stdout, stderr
	if err := sess.Start(batchList(cmds, token)); err != nil {
		sess.Close()
		return listRun{err: fmt.Errorf("start: %w", startError(err))}
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	stop := func() {
		_ = stdin.Close()
		stopSession(sess, done)
	}

	timer := time.NewTimer(limits[0])
	defer timer.Stop()
	var r listRun
	lost := false // the session ended, but not with an exit status
	seen, ended := 0, false
	// Each turn sees the session end, a stop, a tick or a flood: each command's end sends at
	// most one tick and each output a flood, and a tick can come late, after its command was
	// counted.
	for turn := 0; !ended && turn < 4*len(cmds)+3; turn++ {
		select {
		case err := <-done:
			sess.Close()
			ended = true
			// Only an exit status is a clean end: a signal, or none (the channel or the
			// connection dropped), says nothing of the shell.
			var exit *ssh.ExitError
			if err != nil && (!errors.As(err, &exit) || exit.Signal() != "") {
				lost = true
			}
		case <-tick:
			if n := stdout.finished(); n > seen {
				seen = n
				timer.Reset(c.limitAfter(limits, seen)) // Go 1.23 timers: no stale tick to drain
			}
		case <-timer.C:
			if n := stdout.finished(); n > seen {
				// The command ended as its limit ran out and its tick is still queued: the
				// next one starts its own limit now, rather than be blamed for the stall.
				seen = n
				timer.Reset(c.limitAfter(limits, seen))
				continue
			}
			r.stalled, ended = true, true
			stop()
		case <-full:
			// The command being read floods (one that passed the cap and then ended, its
			// part already closed, is answered, truncated, and reading goes on).
			if stdout.flooding() || stderr.flooding() {
				r.flooded, ended = true, true
				stop()
			}
		case <-ctx.Done():
			stop()
			r.err, ended = fmt.Errorf("running: %w", ctx.Err()), true
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				r.err = fmt.Errorf("running: %w: %w", ErrTimeout, ctx.Err())
			}
		}
	}
	if !ended { // cannot happen: more ticks than commands
		stop()
	}
	outParts, status := stdout.result()
	errParts, _ := stderr.result()
	// A command is answered once both its markers came back; on a stall the first command
	// not answered is the one that stalled.
	r.answered = min(len(outParts), len(errParts), len(cmds))
	r.stalled = r.stalled && r.answered < len(cmds)
	r.flooded = r.flooded && r.answered < len(cmds)
	r.cutShort = lost && r.answered < len(cmds)
	r.outs = make([]collectors.Output, r.answered)
	for i := range r.answered {
		r.outs[i] = collectors.Output{Stdout: outParts[i], Stderr: errParts[i], ExitCode: status[i]}
	}
	return r
}
