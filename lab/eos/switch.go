// Package eos emulates an Arista EOS switch for the built-in lab. Every answer is rendered
// from a switchstate.Switch in the format EOS prints (the `| json` models, the
// `show interfaces flowcontrol` table, `show running-config`), so a scenario changes one field
// of the state and every command that would show it changes with it.
//
// The switch answers SSH exec and an interactive CLI (pty-req + shell) that behaves as
// scrapligo's arista_eos driver expects: a `NAME#` prompt, typed bytes echoed, "\r\n" line
// ends, `terminal width|length N` accepted, `enable`/`disable`/`exit`. Only the read commands
// of the EOS collector are known; anything else, configuration included, gets the EOS
// refusal ("% Invalid input (at token N: 'word')"), so the lab never changes state from the CLI.
//
// What EOS cannot express is rendered the nearest way EOS can (see Validate): the DSCP to
// traffic-class map is switch-wide, PFC is symmetric, the watchdog is one switch per port, the
// lossless buffer follows the no-drop priorities, and tx-queues are strict from the highest
// down to the lowest strict queue of the state.
package eos

import (
	"context"
	"strconv"
	"strings"
	"time"

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

// Switch serves one emulated EOS switch. It implements sshd.Device and sshd.Shell.
type Switch struct {
	State *switchstate.Switch
	// Latency delays every interactive answer. sshd applies its own latency to exec requests
	// only, so the lab sets this to the same value for CLI sessions.
	Latency time.Duration

	cmds []*command
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch {
	s := &Switch{State: sw}
	s.cmds = commands()
	return s
}

// commands is the CLI's whole vocabulary: the EOS collector's commands and the session
// commands scrapligo types.
func commands() []*command {
	show := func(line string, priv bool, run func(sw *switchstate.Switch) string) *command {
		return &command{words: strings.Fields(line), priv: priv, run: run}
	}
	session := func(line string, act action) *command {
		return &command{words: strings.Fields(line), act: act}
	}
	return []*command{
		show("show version | json", false, showVersion),
		show("show interfaces | json", false, showInterfaces),
		show("show interfaces flowcontrol", false, showFlowcontrol),
		show("show lldp neighbors detail | json", false, showLLDP),
		show("show running-config", true, showRunningConfig),
		show("show priority-flow-control counters | json", false, showPFCCounters),
		session("terminal length "+numberWord, actNone),
		session("terminal width "+numberWord, actNone),
		session("enable", actEnable),
		session("disable", actDisable),
		session("exit", actExit),
		session("logout", actExit),
	}
}

// Commands lists the command lines the emulator answers with state (the collector's set).
func Commands() []string {
	var out []string
	for _, c := range commands() {
		if c.run != nil {
			out = append(out, strings.Join(c.words, " "))
		}
	}
	return out
}

// answer runs one command line at the given privilege level. failed means out is the CLI's
// refusal.
func (s *Switch) answer(line string, priv bool) (out string, failed bool, act action) {
	toks := tokenize(line)
	if len(toks) == 0 {
		return "", false, actNone
	}
	c, kind, at := match(s.cmds, toks)
	switch kind {
	case failInvalid:
		return "% Invalid input (at token " + strconv.Itoa(at) + ": '" + toks[at].text + "')\n", true, actNone
	case failIncomplete:
		return "% Incomplete command\n", true, actNone
	case failAmbiguous:
		return "% Ambiguous command\n", true, actNone
	}
	if c.priv && !priv {
		return "% Invalid input (privileged mode required)\n", true, actNone
	}
	if c.run == nil {
		return "", false, c.act
	}
	s.State.Read(func(sw *switchstate.Switch) { out = c.run(sw) })
	return out, false, actNone
}

// Exec answers one command as EOS does for `ssh switch 'CMD'`: the output, or the refusal on
// stderr with exit status 1. The login is privileged (network-admin), as in the shell.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	out, failed, _ := s.answer(cmd, true)
	if failed {
		return "", out, 1
	}
	return out, "", 0
}
