package collectors

import (
	"context"
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/topology"
)

var _ BatchRunner = (*recorder)(nil)

// RunBatch sends the allowed commands of cmds as one batch of the next runner and records
// each command as its own exchange, in order, redacted as Run redacts it; a refused command
// is recorded and answered with ErrNotAllowed, never sent.
func (r *recorder) RunBatch(ctx context.Context, cmds []string) ([]Output, []error) {
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
	for i, c := range cmds {
		ex := topology.Exchange{Command: c, Stdout: outs[i].Stdout, Stderr: outs[i].Stderr, ExitCode: outs[i].ExitCode}
		if sent[i] {
			ex.Seconds = secs
		}
		if r.dev.Role != topology.RoleHost {
			ex.Stdout, ex.Stderr = Redact(ex.Stdout), Redact(ex.Stderr)
		}
		if errs[i] != nil {
			ex.Error = errs[i].Error()
			ex.ExitCode = -1
		}
		r.add(ex)
	}
	return outs, errs
}
