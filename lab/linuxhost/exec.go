package linuxhost

import (
	"context"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/linux"
)

// templates are the commands an emulated host answers: exactly the Linux collector's command
// set. Anything else is "command not found" (or goes to the Extension: perftest, ss).
var templates = linux.CollectionCommands()

var allowlist = collectors.NewAllowlist(templates...)

// Templates lists the command templates an emulated host answers.
func Templates() []string { return append([]string(nil), templates...) }

// Exec answers one command line as the host's login shell would. A leading "sudo -n " is
// accepted. The host's own commands answer at once from the state; anything else goes to the
// Extension (which may block until ctx ends), and then is "command not found".
func (h *Host) Exec(ctx context.Context, cmd string) (stdout, stderr string, exit int) {
	line, sudo := strings.CutPrefix(cmd, collectors.SudoPrefix)
	argv := strings.Fields(line)
	if len(argv) == 0 {
		return "", "", 0
	}
	if allowlist.Allows(line) {
		h.mu.RLock()
		defer h.mu.RUnlock()
		if argv[0] == "mlnx_qos" && !h.MlnxQoS || argv[0] == "lldpcli" && !h.LLDPd {
			return notFound(argv[0], sudo)
		}
		return h.render(argv)
	}
	if h.Extension != nil {
		if stdout, stderr, exit, ok := h.Extension(ctx, cmd); ok {
			return stdout, stderr, exit
		}
	}
	return notFound(argv[0], sudo)
}

// render answers one allowed command (argv) from the state; the caller holds the read lock.
func (h *Host) render(argv []string) (stdout, stderr string, exit int) {
	last := argv[len(argv)-1]
	switch argv[0] {
	case "ip":
		return h.renderIPAddr(), "", 0
	case "rdma":
		return h.renderRdmaLink(), "", 0
	case "ibv_devinfo":
		return h.renderIbvDevinfo(), "", 0
	case "grep":
		words := argv[4:] // after "-s -H ."
		out, code := h.filesystem(words).grepAll(words)
		return out, "", code
	case "cat":
		return h.filesystem(argv[1:]).cat(argv[1:])
	case "systemctl":
		if h.LLDPadActive {
			return "active\n", "", 0
		}
		return "inactive\n", "", 3
	case "lldpcli":
		return h.renderLLDPNeighbors(), "", 0
	case "mlnx_qos":
		return h.renderMlnxQos(last)
	case "dcb":
		switch argv[len(argv)-4] {
		case "app":
			return h.renderDcbApp(last)
		case "pfc":
			return h.renderDcbPFC(last)
		default:
			return h.renderDcbDCBX(last)
		}
	case "ethtool":
		if argv[1] == "-a" {
			return h.renderEthtoolPause(last)
		}
		return h.renderEthtoolStats(last)
	}
	return notFound(argv[0], false)
}

// notFound is what bash (or sudo, which looks the command up itself) says for a command that
// is not there.
func notFound(name string, sudo bool) (string, string, int) {
	if sudo {
		return "", "sudo: " + name + ": command not found\n", 1
	}
	return "", "bash: line 1: " + name + ": command not found\n", 127
}
