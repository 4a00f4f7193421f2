package switchcollect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// Batch is a collector's fixed list of commands.
type Batch struct {
	// Platform names the collector in Run's errors ("eos: no command succeeded: ...").
	Platform string
	// Commands are sent in this order.
	Commands []string
	// MayBeEmpty lists the commands whose empty output is an answer, not a failure (NX-OS
	// prints nothing for LLDP when there is no neighbour).
	MayBeEmpty []string
}

// Results holds each command's output or why it has none.
type Results struct {
	out  map[string]string
	errs map[string]error
}

// Run sends every command in order. A transport failure, a non-zero exit or an empty answer
// (outside MayBeEmpty) is that command's failure, kept in the results. Run itself fails only
// when ctx ends (naming the command it ended at) or when no command succeeded (joining every
// failure, in command order).
func (b Batch) Run(ctx context.Context, r collectors.Runner) (Results, error) {
	res := Results{out: map[string]string{}, errs: map[string]error{}}
	var errs []error
	for _, cmd := range b.Commands {
		out, err := run(ctx, r, cmd, slices.Contains(b.MayBeEmpty, cmd))
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Results{}, fmt.Errorf("%s: collection interrupted at %q: %w", b.Platform, cmd, ctxErr)
		}
		if err != nil {
			errs = append(errs, err)
			res.errs[cmd] = err
			continue
		}
		res.out[cmd] = out
	}
	if len(errs) == len(b.Commands) {
		return Results{}, fmt.Errorf("%s: no command succeeded: %w", b.Platform, errors.Join(errs...))
	}
	return res, nil
}

// Parse returns cmd's output parsed, or the command's failure when it has no output.
func Parse[T any](res Results, cmd string, parse func(string) (T, error)) (T, error) {
	if err, failed := res.errs[cmd]; failed {
		var zero T
		return zero, err
	}
	out, ok := res.out[cmd]
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s: not in the batch", cmd)
	}
	return parse(out)
}

// run sends one command and turns a transport failure, a non-zero exit or (unless
// mayBeEmpty) an empty answer into an error naming the command.
func run(ctx context.Context, r collectors.Runner, cmd string, mayBeEmpty bool) (string, error) {
	out, err := r.Run(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("%s: %w", cmd, err)
	}
	if out.ExitCode != 0 {
		return "", fmt.Errorf("%s: exit status %d: %s", cmd, out.ExitCode, Excerpt(out.Stderr+out.Stdout, 300))
	}
	if strings.TrimSpace(out.Stdout) == "" && !mayBeEmpty {
		return "", fmt.Errorf("%s: empty output", cmd)
	}
	return out.Stdout, nil
}
