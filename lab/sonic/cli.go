package sonic

import (
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/lab/loginshell"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// SONiC's `show` is a click program (sonic-utilities show/main.py): a tree of groups whose
// commands may be abbreviated to any unique prefix (clicommon.AliasedGroup), answering
// click's usage errors with exit status 2. The lab renders the leaves that have a renderer;
// the other real commands listed here answer that the lab does not render them.
type command struct {
	name   string
	render func(sw *switchstate.Switch) string // nil: a real command the lab does not render
	args   bool                                // takes arguments (an interface name, ...)
	sub    []*command                          // a group's commands; nil for a leaf
}

func leaf(name string, render func(sw *switchstate.Switch) string) *command {
	return &command{name: name, render: render}
}

func group(name string, sub ...*command) *command { return &command{name: name, sub: sub} }

// other is a real leaf command the lab does not render.
func other(names ...string) []*command {
	out := make([]*command, len(names))
	for i, n := range names {
		out[i] = &command{name: n, args: true}
	}
	return out
}

// showCLI is the part of SONiC's `show` tree the lab knows.
var showCLI = group("show",
	leaf("version", showVersion),
	group("runningconfiguration", append(other("acl", "bgp", "interfaces", "ntp", "ports", "syslog", "snmp"),
		leaf("all", showRunningConfig))...),
	group("lldp", append(other("neighbors"), leaf("table", showLLDPTable))...),
	group("pfc", append(other("asymmetric", "priority"), leaf("counters", showPFCCounters))...),
	group("queue", append(other("watermark", "persistent-watermark"), leaf("counters", showQueueCounters))...),
	group("interfaces", append(other("description", "status", "transceiver", "naming_mode", "neighbor", "portchannel"), leaf("counters", showInterfaceCounters))...),
	&command{name: "platform", sub: other("summary", "syseeprom", "psustatus", "fan", "temperature")},
	&command{name: "ip", sub: other("interfaces", "route", "bgp")},
	&command{name: "buffer", sub: other("configuration", "information")},
	&command{name: "mac", args: true},
	&command{name: "vlan", sub: other("brief", "config")},
)

// find is the subcommand word names, as AliasedGroup resolves it: the exact name, else the
// only one it is a prefix of; matches lists the candidates when there are several.
func (c *command) find(word string) (found *command, matches []string) {
	for _, s := range c.sub {
		if s.name == word {
			return s, nil
		}
	}
	for _, s := range c.sub {
		if strings.HasPrefix(s.name, word) {
			found, matches = s, append(matches, s.name)
		}
	}
	if len(matches) != 1 {
		sort.Strings(matches)
		return nil, matches
	}
	return found, nil
}

// resolve finds the command `show ARGS...` names, as click does; when it is not a command the
// lab renders, it returns click's (or the lab's) answer instead.
func resolve(args []string) (c *command, stdout, stderr string, exit int) {
	c, path := showCLI, "show"
	for i, a := range args {
		switch {
		case a == "-h" || a == "-?" || a == "--help":
			return nil, help(c, path), "", 0
		case c.sub == nil && (c.args || strings.HasPrefix(a, "-")):
			return notEmulated(append([]string{"show"}, args...))
		case c.sub == nil:
			extra := "argument"
			if len(args[i:]) > 1 {
				extra = "arguments"
			}
			return nil, "", usageError(c, path, "Got unexpected extra "+extra+" ("+strings.Join(args[i:], " ")+")"), 2
		case strings.HasPrefix(a, "-"):
			return nil, "", usageError(c, path, "no such option: "+a), 2
		}
		next, matches := c.find(a)
		switch {
		case next != nil:
			c, path = next, path+" "+next.name
		case len(matches) > 1:
			return nil, "", usageError(c, path, "Too many matches: "+strings.Join(matches, ", ")), 2
		default:
			return nil, "", usageError(c, path, `No such command "`+a+`".`), 2
		}
	}
	switch {
	case c.sub != nil:
		return nil, help(c, path), "", 0 // a group without a command prints its help
	case c.render == nil:
		return notEmulated(append([]string{"show"}, args...))
	}
	return c, "", "", 0
}

func notEmulated(argv []string) (*command, string, string, int) {
	stdout, stderr, exit := loginshell.NotEmulated(argv)
	return nil, stdout, stderr, exit
}

func usageLine(c *command, path string) string {
	if c.sub != nil {
		return "Usage: " + path + " [OPTIONS] COMMAND [ARGS]...\n"
	}
	return "Usage: " + path + " [OPTIONS]\n"
}

// usageError is click 7's UsageError: the usage line, the help hint, the message.
func usageError(c *command, path, msg string) string {
	return usageLine(c, path) + `Try "` + path + ` -h" for help.` + "\n\nError: " + msg + "\n"
}

// help is a group's help page (without the docstrings, which the lab does not keep).
func help(c *command, path string) string {
	var b strings.Builder
	b.WriteString(usageLine(c, path) + "\nOptions:\n  -h, -?, --help  Show this message and exit.\n")
	if c.sub != nil {
		b.WriteString("\nCommands:\n")
		names := make([]string, 0, len(c.sub))
		for _, s := range c.sub {
			names = append(names, s.name)
		}
		sort.Strings(names)
		for _, n := range names {
			b.WriteString("  " + n + "\n")
		}
	}
	return b.String()
}
