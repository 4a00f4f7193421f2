// Package collectors turns devices into facts: a Runner sends allowlisted read-only commands,
// and one package per platform parses what comes back.
package collectors

import (
	"context"
	"errors"
)

// Output is what one command returned. A non-zero ExitCode is not a Go error: parsers decide
// what it means (grep exits 2 when some sysfs files are unreadable, for example).
type Output struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// Runner sends one command to one device. The error is for transport failures and refusals
// (the command was not run); a command that ran and failed is an Output with ExitCode != 0.
type Runner interface {
	Run(ctx context.Context, command string) (Output, error)
}

// ErrNotAllowed is returned when a command is not on the platform's read-only allowlist.
var ErrNotAllowed = errors.New("command not on the read-only allowlist")

// BatchRunner is a Runner that can also send several independent read-only commands in one
// round of the transport (one SSH session rather than one per command). Each command is
// allowlisted, run and answered exactly as Run would; errs[i] is Run's error for cmds[i].
type BatchRunner interface {
	Runner
	RunBatch(ctx context.Context, cmds []string) (outs []Output, errs []error)
}

// AsBatch is r's batch interface, or one that sends the commands one Run at a time, in order,
// when r has none.
func AsBatch(r Runner) BatchRunner {
	if b, ok := r.(BatchRunner); ok {
		return b
	}
	return oneByOne{r}
}

type oneByOne struct{ Runner }

func (o oneByOne) RunBatch(ctx context.Context, cmds []string) ([]Output, []error) {
	return RunEach(ctx, o.Runner, cmds)
}

// RunEach sends cmds one Run at a time, in order: the fallback of a batch.
func RunEach(ctx context.Context, r Runner, cmds []string) ([]Output, []error) {
	outs, errs := make([]Output, len(cmds)), make([]error, len(cmds))
	for i, c := range cmds {
		outs[i], errs[i] = r.Run(ctx, c)
	}
	return outs, errs
}
