// Package eos emulates an Arista EOS switch for the built-in lab. Every answer is rendered
// from a switchstate.Switch in the format EOS prints (the `| json` models, the
// `show interfaces flowcontrol` table, `show running-config`), so a scenario changes one field
// of the state and every command that would show it changes with it.
//
// The switch answers SSH exec and an interactive CLI (pty-req + shell) that behaves as
// scrapligo's arista_eos driver expects: a `NAME#` prompt, typed bytes echoed, "\r\n" line
// ends, `terminal width|length N` accepted, `enable`/`disable`/`exit`. Only the read commands
// listed in commands are known; anything else, configuration included, gets the EOS
// refusal ("% Invalid input (at token N: 'word')"), so the lab never changes state from the CLI.
//
// What EOS cannot express is rendered the nearest way EOS can (see Validate): the DSCP to
// traffic-class map is switch-wide, PFC is symmetric, the watchdog is one switch per port, the
// lossless buffer follows the no-drop priorities, and tx-queues are strict from the highest
// down to the lowest strict queue of the state.
package eos

import (
	"strconv"

	"github.com/roceaudit/roceaudit/lab/clishell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Defaults for a state that leaves them empty, and the healthy port MTU.
const (
	DefaultModel   = "DCS-7050CX3-32S"
	DefaultVersion = "4.28.3M"
	// MTU is the 9216-class jumbo MTU as EOS configures it (the IP MTU, at most 9214).
	MTU = 9214
	// Profile is the qos profile that carries the QoS settings most ports share.
	Profile = "ROCE_LOSSLESS"
)

// Switch serves one emulated EOS switch. It implements sshd.Device and sshd.Shell (through
// the embedded CLI, whose State and Latency are the lab's to set).
type Switch struct {
	clishell.CLI
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch {
	return &Switch{clishell.New(sw, dialect, commands())}
}

// dialect is how EOS words a refusal; it prints no login banner.
var dialect = clishell.Dialect{
	Refuse:            refuse,
	PrivilegeRequired: "% Invalid input (privileged mode required)\n",
}

func refuse(r clishell.Refusal) string {
	switch r.Kind {
	case clishell.Invalid:
		return "% Invalid input (at token " + strconv.Itoa(r.At) + ": '" + r.Tokens[r.At].Text + "')\n"
	case clishell.Incomplete:
		return "% Incomplete command\n"
	default:
		return "% Ambiguous command\n"
	}
}

// commands is the CLI's whole vocabulary: the EOS show commands the lab renders and the session
// commands scrapligo types. Only the running-config needs the privileged level.
func commands() []*clishell.Command {
	privileged := func(c *clishell.Command) *clishell.Command {
		c.Priv = true
		return c
	}
	return []*clishell.Command{
		clishell.Show("show version | json", showVersion),
		clishell.Show("show interfaces | json", showInterfaces),
		clishell.Show("show interfaces flowcontrol", showFlowcontrol),
		clishell.Show("show lldp neighbors detail | json", showLLDP),
		privileged(clishell.Show("show running-config", showRunningConfig)),
		clishell.Show("show priority-flow-control counters | json", showPFCCounters),
		clishell.Session("terminal length "+clishell.NumberWord, clishell.ActNone),
		clishell.Session("terminal width "+clishell.NumberWord, clishell.ActNone),
		clishell.Session("enable", clishell.ActEnable),
		clishell.Session("disable", clishell.ActDisable),
		clishell.Session("exit", clishell.ActExit),
		clishell.Session("logout", clishell.ActExit),
	}
}

// Commands lists the command lines the emulator answers with state (the collector's set).
func Commands() []string { return clishell.Lines(commands()) }
