package linux

import (
	"context"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// maxInFlight bounds the concurrent tasks per host; the runner multiplexes SSH sessions and
// sshd's default MaxSessions is 10, so a few at a time is polite and still fast.
const maxInFlight = 4

// result is one command and what came back.
type result struct {
	cmd string // as sent, including any sudo prefix
	out collectors.Output
	err error // transport failure, refusal, or the command was never built
}

// ok reports a command that ran and exited 0.
func (r result) ok() bool { return r.err == nil && r.out.ExitCode == 0 }

// ran reports a command that ran at all, whatever its exit code.
func (r result) ran() bool { return r.err == nil }

// commandMissing reports "command not found" from the remote shell.
func (r result) commandMissing() bool {
	if r.err != nil {
		return false
	}
	return r.out.ExitCode == 127 || strings.Contains(r.out.Stderr, "command not found") ||
		strings.HasSuffix(strings.TrimSpace(r.out.Stderr), ": not found")
}

// fileMissing reports cat's "No such file or directory".
func (r result) fileMissing() bool {
	return r.err == nil && r.out.ExitCode != 0 && strings.Contains(r.out.Stderr, "No such file or directory")
}

// failure says why a command gave nothing usable: the transport error, or exit code + stderr.
func (r result) failure() string {
	if r.err != nil {
		return r.err.Error()
	}
	msg := fmt.Sprintf("exit %d", r.out.ExitCode)
	if s := firstLines(strings.TrimSpace(r.out.Stderr), 3); s != "" {
		msg += ": " + s
	}
	return msg
}

// executor builds, prefixes and sends commands.
type executor struct {
	r    collectors.Runner
	sudo bool
	pre  *collectors.Prefetched // what phases sent ahead (see phase); r answers from it
}

// newExecutor is an executor whose phases send ahead over r.
func newExecutor(r collectors.Runner, sudo bool) executor {
	p := collectors.Prefetch(context.Background(), r, 1)
	return executor{r: p, sudo: sudo, pre: p}
}

// run fills template with vars (every value validated) and sends it, unless a phase already
// did. A value that fails validation is never sent: the result carries the validation error.
func (e executor) run(ctx context.Context, template string, vars map[string]string) result {
	return e.send(ctx, template, e.call(template, vars))
}

// run is e.run of template with w's values (see portWork.cmd).
func (w *portWork) run(ctx context.Context, e executor, template string) result {
	return e.send(ctx, template, w.cmd(e, template))
}

// send sends c, the expansion of template, unless a phase already did.
func (e executor) send(ctx context.Context, template string, c call) result {
	if c.err != nil {
		return result{cmd: template, err: c.err}
	}
	out, err := e.r.Run(ctx, c.cmd) // answered from a phase when one sent it
	return result{cmd: c.cmd, out: out, err: err}
}

// firstLines keeps at most n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
