// Package nxos emulates a Cisco Nexus 9000 switch (NX-OS) for the built-in lab. Every answer
// is rendered from a switchstate.Switch in the format NX-OS prints (`| json` with TABLE_/ROW_
// members, `show running-config ipqos`), so a scenario changes one field of the state and
// every command that would show it changes with it.
//
// The switch answers SSH exec (one command per session, as NX-OS allows) and an interactive
// CLI (pty-req + shell) that behaves as scrapligo's cisco_nxos driver expects: the NX-OS login
// banner, a `NAME#` prompt, typed bytes echoed, "\r\n" line ends, `terminal width|length N`
// accepted, `exit`. Only the read commands of the NX-OS collector are known; anything else,
// configuration included, gets the NX-OS refusal (a caret line under the offending word and
// "% Invalid command at '^' marker."), so the lab never changes state from the CLI.
//
// What NX-OS cannot express per port is rendered switch-wide (see Validate): the no-drop
// classes (`pause pfc-cos`, and with them the lossless buffers) are one network-qos policy
// under system qos; a port only chooses `priority-flow-control mode on|auto|off`. DSCP
// classification and queuing are policies, so ports that differ get their own policy.
package nxos

import (
	"context"
	"strconv"
	"strings"
	"time"

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

// Switch serves one emulated NX-OS switch. It implements sshd.Device and sshd.Shell.
type Switch struct {
	State *switchstate.Switch
	// Latency delays every interactive answer. sshd applies its own latency to exec requests
	// only, so the lab sets this to the same value for CLI sessions.
	Latency time.Duration

	now  func() time.Time // the running-config's "!Time:" line
	cmds []*command
}

// New serves sw. The state may change later (under its lock); every answer reads it afresh.
func New(sw *switchstate.Switch) *Switch {
	s := &Switch{State: sw, now: time.Now}
	s.cmds = s.commands()
	return s
}

// commands is the CLI's whole vocabulary: the NX-OS collector's commands and the session
// commands scrapligo types.
func (s *Switch) commands() []*command {
	show := func(line string, run func(sw *switchstate.Switch) string) *command {
		return &command{words: strings.Fields(line), run: run}
	}
	session := func(line string, act action) *command {
		return &command{words: strings.Fields(line), act: act}
	}
	return []*command{
		show("show version | json", showVersion),
		show("show interface | json", showInterface),
		show("show lldp neighbors detail | json", showLLDP),
		show("show running-config ipqos", func(sw *switchstate.Switch) string { return showIPQoS(sw, s.now()) }),
		session("terminal length "+numberWord, actNone),
		session("terminal width "+numberWord, actNone),
		session("exit", actExit),
	}
}

// Commands lists the command lines the emulator answers with state (the collector's set).
func Commands() []string {
	var out []string
	for _, c := range New(&switchstate.Switch{}).cmds {
		if c.run != nil {
			out = append(out, strings.Join(c.words, " "))
		}
	}
	return out
}

// answer runs one command line. indent is how far the line starts from the left edge of the
// screen (the prompt's width in the shell, 0 for exec), so the caret of a refusal points at
// the offending word. failed means out is the CLI's refusal.
func (s *Switch) answer(line string, indent int) (out string, failed bool, act action) {
	toks := tokenize(line)
	if len(toks) == 0 {
		return "", false, actNone
	}
	c, kind, at := match(s.cmds, toks)
	if kind != failNone {
		col := len(strings.TrimRight(line, " ")) + 1
		if at < len(toks) {
			col = toks[at].col
		}
		what := map[failKind]string{failInvalid: "Invalid", failIncomplete: "Incomplete", failAmbiguous: "Ambiguous"}[kind]
		return strings.Repeat(" ", indent+col) + "^\n% " + what + " command at '^' marker.\n", true, actNone
	}
	if c.run == nil {
		return "", false, c.act
	}
	s.State.Read(func(sw *switchstate.Switch) { out = c.run(sw) })
	return out, false, actNone
}

// Exec answers one command as NX-OS does for `ssh switch 'CMD'`: the output, or the refusal
// on stderr with exit status 1.
func (s *Switch) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	out, failed, _ := s.answer(cmd, 0)
	if failed {
		return "", out, 1
	}
	return out, "", 0
}

// itoa spells NX-OS's string-typed numbers.
func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }
