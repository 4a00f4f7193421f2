package linuxhost

import (
	"context"

	"github.com/roceaudit/roceaudit/lab/loginshell"
)

// tool is one program installed on the host: it reads its own arguments, as the real program
// does, and answers from the state (the caller holds the read lock).
type tool func(h *Host, args []string) (stdout, stderr string, exit int)

// tools are the programs the host has, by name. mlnx_qos and lldpcli are only there when the
// state says their package is installed (see installed).
var tools = map[string]tool{
	"cat":         (*Host).cat,
	"grep":        (*Host).grep,
	"ip":          (*Host).ip,
	"rdma":        (*Host).rdma,
	"dcb":         (*Host).dcb,
	"ibv_devinfo": (*Host).ibvDevinfo,
	"ethtool":     (*Host).ethtool,
	"mlnx_qos":    (*Host).mlnxQos,
	"systemctl":   (*Host).systemctl,
	"lldpcli":     (*Host).lldpcli,
	"pgrep":       (*Host).pgrep,
}

// installed finds a program; the caller holds the read lock.
func (h *Host) installed(name string) (tool, bool) {
	if name == "mlnx_qos" && !h.MlnxQoS || name == "lldpcli" && !h.LLDPd {
		return nil, false
	}
	t, ok := tools[name]
	return t, ok
}

// Exec answers a command line as the host's login shell would: a `;`-list runs each command
// in turn (loginshell.List), bash splits each, sudo (a
// NOPASSWD login) runs what follows it, the program reads its own arguments. The host's own
// programs answer at once from the state; anything else goes to the Extension (which may
// block until ctx ends), and then is "command not found".
func (h *Host) Exec(ctx context.Context, cmd string) (stdout, stderr string, exit int) {
	return loginshell.List(cmd, func(c string) (string, string, int) { return h.execOne(ctx, c) })
}

// execOne answers one simple command.
func (h *Host) execOne(ctx context.Context, cmd string) (stdout, stderr string, exit int) {
	line, fail := loginshell.Parse(cmd)
	if fail != nil {
		return "", fail.Stderr, fail.Exit
	}
	if len(line.Argv) == 0 {
		return "", "", 0
	}
	if stdout, stderr, exit, ok := h.runTool(line.Argv); ok {
		return stdout, stderr, exit
	}
	if h.Extension != nil {
		if stdout, stderr, exit, ok := h.Extension(ctx, cmd); ok {
			return stdout, stderr, exit
		}
	}
	return loginshell.NotFound(line.Argv[0], line.Sudo)
}

// runTool runs an installed program under the read lock; ok is false when it is not there.
func (h *Host) runTool(argv []string) (stdout, stderr string, exit int, ok bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	t, ok := h.installed(argv[0])
	if !ok {
		return "", "", 0, false
	}
	stdout, stderr, exit = t(h, argv[1:])
	return stdout, stderr, exit, true
}
