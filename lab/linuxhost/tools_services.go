package linuxhost

import (
	"strconv"
	"strings"
)

// systemctl is `systemctl is-active UNIT...`: one state per unit, exit 0 when one is active
// (3 otherwise, as systemd's "program is not running"). Only lldpad can be active here.
func (h *Host) systemctl(args []string) (string, string, int) {
	g := parseGNU(args)
	if r := g.badShort("tHMhqa"); r != 0 {
		return "", "systemctl: invalid option -- '" + string(r) + "'\n", 1
	}
	if h.NoSystemd {
		// systemd's own refusal when PID 1 is another init (src/systemctl).
		return "", "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n", 1
	}
	if len(g.operands) == 0 {
		return notEmulated(append([]string{"systemctl"}, args...)...) // list-units
	}
	switch verb := g.operands[0]; verb {
	case "is-active":
	case "status", "show", "is-enabled", "is-failed", "list-units", "cat", "start", "stop", "restart", "reload", "enable", "disable":
		return notEmulated(append([]string{"systemctl"}, args...)...)
	default:
		return "", "Unknown command verb '" + verb + "'.\n", 1
	}
	units := g.operands[1:]
	if len(units) == 0 || len(g.short)+len(g.long) > 0 {
		return notEmulated(append([]string{"systemctl"}, args...)...)
	}
	var b strings.Builder
	exit := 3
	for _, u := range units {
		if strings.TrimSuffix(u, ".service") == "lldpad" && h.LLDPadActive {
			b.WriteString("active\n")
			exit = 0
			continue
		}
		b.WriteString("inactive\n")
	}
	return b.String(), "", exit
}

// lldpcliFormats are lldpcli's output formats (-f).
var lldpcliFormats = []string{"plain", "keyvalue", "json", "json0", "xml"}

// lldpcli is `lldpcli -f json0 show neighbors`: lldpd's neighbours as always-lists JSON.
func (h *Host) lldpcli(args []string) (string, string, int) {
	format := "plain"
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-f":
			if len(args) < 2 {
				return "", "lldpcli: option requires an argument -- 'f'\n", 1
			}
			format, args = args[1], args[2:]
			if prefixOf(format, lldpcliFormats) != format {
				return "", "lldpcli: unknown output format \"" + format + "\"\n", 1
			}
		case "-d", "-dd", "-ddd":
			args = args[1:]
		default:
			return "", "lldpcli: invalid option -- '" + strings.TrimLeft(args[0], "-") + "'\n", 1
		}
	}
	if len(args) == 0 {
		return notEmulated("lldpcli") // the interactive prompt
	}
	if args[0] != "show" {
		return "", "lldpcli: unknown command from argument 1: `" + args[0] + "`\n", 1
	}
	if len(args) > 1 && prefixOf(args[1], []string{"neighbors", "chassis", "interfaces", "statistics", "configuration", "running-configuration"}) == "" {
		return "", "lldpcli: unknown command from argument 2: `" + args[1] + "`\n", 1
	}
	if len(args) != 2 || args[1] != "neighbors" || format != "json0" {
		return notEmulated(append([]string{"lldpcli"}, args...)...)
	}
	return h.renderLLDPNeighbors(), "", 0
}

// daemonPIDs are the host's long-running daemons by process name, with a PID each.
func (h *Host) daemonPIDs() map[string]int {
	out := map[string]int{}
	if h.LLDPadActive {
		out["lldpad"] = 412
	}
	if h.LLDPd {
		out["lldpd"] = 1187
	}
	return out
}

// pgrep is procps-ng `pgrep -x NAME`: the PID of each process named exactly NAME, exit 0;
// exit 1 when none matches. Pattern matching without -x is not emulated.
func (h *Host) pgrep(args []string) (string, string, int) {
	g := parseGNU(args)
	if r := g.badShort("flvxncoPgGsuUtdaiwAFLrqhV"); r != 0 {
		return "", "pgrep: invalid option -- '" + string(r) + "'\nUsage:\n pgrep [options] <pattern>\n", 2
	}
	if len(g.operands) != 1 {
		return "", "pgrep: no matching criteria specified\nTry `pgrep --help' for more information.\n", 2
	}
	if !g.only("x") || len(g.short) != 1 {
		return notEmulated(append([]string{"pgrep"}, args...)...)
	}
	if pid, ok := h.daemonPIDs()[g.operands[0]]; ok {
		return strconv.Itoa(pid) + "\n", "", 0
	}
	return "", "", 1
}
