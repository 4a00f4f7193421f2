// Package nxos emulates a Cisco Nexus 9000 switch (NX-OS) for the built-in lab. Every answer
// is rendered from a switchstate.Switch in the format NX-OS prints (`| json` with TABLE_/ROW_
// members, `show running-config ipqos`), so a scenario changes one field of the state and
// every command that would show it changes with it.
//
// The switch answers SSH exec (one command per session, as NX-OS allows) and an interactive
// CLI (pty-req + shell) that behaves as scrapligo's cisco_nxos driver expects: the NX-OS login
// banner, a `NAME#` prompt, typed bytes echoed, "\r\n" line ends, `terminal width|length N`
// accepted, `exit`. Only the read commands listed in commands are known; anything else,
// configuration included, gets the NX-OS refusal (a caret line under the offending word and
// "% Invalid command at '^' marker."), so the lab never changes state from the CLI.
//
// What NX-OS cannot express per port is rendered switch-wide (see Validate): the no-drop
// classes (`pause pfc-cos`, and with them the lossless buffers) are one network-qos policy
// under system qos; a port only chooses `priority-flow-control mode on|auto|off`. DSCP
// classification and queuing are policies, so ports that differ get their own policy.
package nxos

import (
	"strconv"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/lab/clishell"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Defaults for a state that leaves them empty, and the healthy port MTU.
const (
	DefaultModel   = "N9K-C9336C-FX2"
	DefaultVersion = "10.2(4)"
	// MTU is the 9216-class jumbo frame MTU as NX-OS configures it.
	MTU = 9216
	// Policy names of the rendered QoS configuration; ports that differ from the most common
	// settings get numbered variants ("ROCE-IN-2").
	QoSPolicy     = "ROCE-IN"
	QueuingPolicy = "ROCE-OUT"
	NetworkPolicy = "ROCE-NQ"
)

// Switch serves one emulated NX-OS switch. It implements sshd.Device and sshd.Shell (through
// the embedded CLI, whose State and Latency are the lab's to set).
type Switch struct {
	clishell.CLI

	Now func() time.Time // the running-config's "!Time:" line
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch {
	s := &Switch{Now: time.Now}
	s.CLI = clishell.New(sw, dialect, s.commands())
	return s
}

// dialect is how NX-OS greets a session and words a refusal. The login is network-admin and
// no command here needs more, so there is no privilege refusal.
var dialect = clishell.Dialect{
	Banner: banner,
	Refuse: refuse,
}

// banner is what NX-OS prints when a CLI session starts.
const banner = "Cisco Nexus Operating System (NX-OS) Software\r\n" +
	"TAC support: http://www.cisco.com/tac\r\n" +
	"Copyright (C) 2002-2022, Cisco and/or its affiliates.\r\n" +
	"All rights reserved.\r\n"

// refuse puts a caret under the offending word (one column past the line's end when it stops
// short), counting the prompt in a session since the echoed line follows it.
func refuse(r clishell.Refusal) string {
	col := len(strings.TrimRight(r.Line, " ")) + 1
	if r.At < len(r.Tokens) {
		col = r.Tokens[r.At].Col
	}
	what := map[clishell.Failure]string{clishell.Invalid: "Invalid", clishell.Incomplete: "Incomplete", clishell.Ambiguous: "Ambiguous"}[r.Kind]
	return strings.Repeat(" ", r.Indent+col) + "^\n% " + what + " command at '^' marker.\n"
}

// commands is the CLI's whole vocabulary: the NX-OS show commands the lab renders and the session
// commands scrapligo types.
func (s *Switch) commands() []*clishell.Command {
	return []*clishell.Command{
		clishell.Show("show version | json", showVersion),
		clishell.Show("show interface | json", showInterface),
		clishell.Show("show lldp neighbors detail | json", showLLDP),
		clishell.Show("show running-config ipqos", func(sw *switchstate.Switch) string { return showIPQoS(sw, s.Now()) }),
		clishell.Show("show interface priority-flow-control", showPFC),
		clishell.Show("show queuing interface | json", showQueuingJSON),
		clishell.Show("show queuing interface", showQueuing),
		clishell.Session("terminal length "+clishell.NumberWord, clishell.ActNone),
		clishell.Session("terminal width "+clishell.NumberWord, clishell.ActNone),
		clishell.Session("exit", clishell.ActExit),
	}
}

// Commands lists the command lines the emulator answers with state (the collector's set).
func Commands() []string { return clishell.Lines(new(Switch).commands()) }

// itoa spells NX-OS's string-typed numbers.
func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }
