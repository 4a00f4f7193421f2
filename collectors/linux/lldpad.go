package linux

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// noSystemd reports a systemctl that cannot answer because systemd is not PID 1 (a container,
// a minimal install) or is not installed at all: only then is the process table asked.
func noSystemd(r result) bool {
	if !r.ran() {
		return false
	}
	return r.commandMissing() || strings.Contains(r.out.Stderr, "has not been booted with systemd") ||
		strings.Contains(r.out.Stderr, "Failed to connect to bus")
}

// lldpFact reads whether lldpad is active: from systemctl, or, where systemctl cannot
// answer, from pgrep.
func lldpFact(sys, pgrep result) topology.Fact[bool] {
	if noSystemd(sys) {
		return pgrepFact(sys, pgrep)
	}
	src := topology.Evidence{Command: sys.cmd, Excerpt: strings.TrimSpace(sys.out.Stdout)}
	if !sys.ran() {
		src.Error = "cannot tell whether lldpad runs: " + sys.failure()
		return topology.Unknown[bool](src)
	}
	active, err := ParseSystemctlActive(sys.out.Stdout)
	if err != nil {
		src.Error = fmt.Sprintf("%v (%s)", err, sys.failure())
		return topology.Unknown[bool](src)
	}
	return topology.Known(active, src)
}

// pgrepFact decides from `pgrep -x lldpad`, keeping why systemctl could not answer.
func pgrepFact(sys, pgrep result) topology.Fact[bool] {
	src := topology.Evidence{Command: sys.cmd + "; " + pgrep.cmd,
		Excerpt: strings.TrimSpace("systemctl: " + sys.failure() + "\n" + strings.TrimSpace(pgrep.out.Stdout))}
	if !pgrep.ran() || pgrep.commandMissing() {
		src.Error = "cannot tell whether lldpad runs: systemctl cannot answer (" + sys.failure() + ") and pgrep failed: " + pgrep.failure()
		return topology.Unknown[bool](src)
	}
	running, err := ParsePgrep(pgrep.out.Stdout, pgrep.out.ExitCode)
	if err != nil {
		src.Error = fmt.Sprintf("%v (%s)", err, pgrep.failure())
		return topology.Unknown[bool](src)
	}
	if !running {
		src.Excerpt += "\npgrep: no lldpad process (exit 1)"
	}
	return topology.Known(running, src)
}
