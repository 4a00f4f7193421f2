package collectors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/topology"
)

var _ BatchRunner = (*recorder)(nil)

// RunBatch sends the allowed commands of cmds as one batch of the next runner and records
// each command as its own exchange, in order, redacted as Run redacts it; a refused command
// is recorded and answered with ErrNotAllowed, never sent.
func (r *recorder) RunBatch(ctx context.Context, cmds []string) ([]Output, []error) {
	outs, errs, pend := r.send(ctx, cmds)
	for _, p := range pend {
		p.record()
	}
	return outs, errs
}

// pendingExchange is one answered command of a batch, not yet in the transcript.
type pendingExchange struct {
	r    *recorder
	cmd  string
	out  Output
	err  error
	secs float64 // zero when the command was refused, not sent

	recorded bool // in the transcript; guarded by r.mu
}

// hold keeps pend, exchanges whose recording waits for a read, for flushUnread.
func (r *recorder) hold(pend []*pendingExchange) {
	if r.drop {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unread = append(r.unread, pend...)
}

// flushUnread records, in the order they were sent, the exchanges no collector read: a
// command sent ahead on a guess that turned out not to be needed still ran on the device,
// and the transcript is every command run there, not only those facts came from.
func (r *recorder) flushUnread() {
	r.mu.Lock()
	unread := r.unread
	r.unread = nil
	r.mu.Unlock()
	for _, p := range unread {
		p.record()
	}
}

// record adds the exchange to the transcript, redacted as Run redacts, unless it is there
// already; nil records nothing.
func (p *pendingExchange) record() {
	if p == nil {
		return
	}
	p.r.mu.Lock()
	done := p.recorded
	p.recorded = true
	p.r.mu.Unlock()
	if done {
		return
	}
	ex := topology.Exchange{Command: p.cmd, Stdout: p.out.Stdout, Stderr: p.out.Stderr, ExitCode: p.out.ExitCode, Seconds: p.secs}
	if p.r.dev.Role != topology.RoleHost {
		ex.Stdout, ex.Stderr = Redact(ex.Stdout), Redact(ex.Stderr)
	}
	if p.err != nil {
		ex.Error = p.err.Error()
		ex.ExitCode = -1
	}
	p.r.add(ex)
}

// send is RunBatch without the recording: each command's exchange comes back pending (nil
// when the recorder keeps no transcript).
func (r *recorder) send(ctx context.Context, cmds []string) ([]Output, []error, []*pendingExchange) {
	outs, errs := make([]Output, len(cmds)), make([]error, len(cmds))
	var send []string
	var at []int // index in cmds of each command sent
	for i, c := range cmds {
		if !r.al.Allows(c) {
			errs[i] = fmt.Errorf("%w: %q", ErrNotAllowed, c)
			continue
		}
		send = append(send, c)
		at = append(at, i)
	}
	start := time.Now()
	var got []Output
	var gotErr []error
	if len(send) > 0 {
		got, gotErr = AsBatch(r.next).RunBatch(ctx, send)
	}
	// A batch has one duration: each command is given its share.
	secs := time.Since(start).Seconds() / float64(max(1, len(send)))
	sent := make([]bool, len(cmds))
	for j, i := range at {
		outs[i], errs[i], sent[i] = got[j], gotErr[j], true
	}
	pend := make([]*pendingExchange, len(cmds))
	if r.drop {
		return outs, errs, pend
	}
	for i, c := range cmds {
		pend[i] = &pendingExchange{r: r, cmd: c, out: outs[i], err: errs[i]}
		if sent[i] && !errors.Is(errs[i], ErrGuessNotSent) {
			pend[i].secs = secs
		}
	}
	return outs, errs, pend
}
