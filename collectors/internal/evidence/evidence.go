// Package evidence runs one switch command and reports the outcome as the evidence of the
// facts read from it, for the collectors that decide what to send next from what answered
// (SONiC, Cumulus): a failure is not an error to return but an Evidence.Error to show.
package evidence

import (
	"context"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// Run sends cmd. A transport error or a non-zero exit leaves Evidence.Error set, starting with
// the command; a non-zero exit quotes the first three lines of stderr (or of stdout when
// stderr is blank). Output is returned only on success; an empty one is an answer.
func Run(ctx context.Context, r collectors.Runner, cmd string) (string, topology.Evidence) {
	ev := topology.Evidence{Command: cmd}
	out, err := r.Run(ctx, cmd)
	if err != nil {
		ev.Error = fmt.Sprintf("%s: %v", cmd, err)
		return "", ev
	}
	if out.ExitCode != 0 {
		msg := strings.TrimSpace(out.Stderr)
		if msg == "" {
			msg = strings.TrimSpace(out.Stdout)
		}
		ev.Error = fmt.Sprintf("%s: exit status %d: %s", cmd, out.ExitCode, firstLines(msg, 3))
		return "", ev
	}
	return out.Stdout, ev
}

// Read is Run followed by parse; a parse error becomes Evidence.Error as it is (parsers name
// the command themselves). The value is parse's, or zero when the command failed.
func Read[T any](ctx context.Context, r collectors.Runner, cmd string, parse func(string) (T, error)) (T, topology.Evidence) {
	out, ev := Run(ctx, r, cmd)
	if ev.Error != "" {
		var zero T
		return zero, ev
	}
	v, err := parse(out)
	if err != nil {
		ev.Error = err.Error()
	}
	return v, ev
}

// firstLines keeps the first n lines of s, joined with " | ", and "..." when there were more.
func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, " | ")
}
