package linuxhost

import "strings"

// systemctl is `systemctl is-active UNIT...`: one state per unit, exit 0 when one is active
// (3 otherwise, as systemd's "program is not running"). Only lldpad can be active here.
func (h *Host) systemctl(args []string) (string, string, int) {
	g := parseGNU(args)
	if r := g.badShort("tHMhqa"); r != 0 {
		return "", "systemctl: invalid option -- '" + string(r) + "'\n", 1
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
