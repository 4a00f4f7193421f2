// Package clishell is the interactive CLI of the lab's network-OS switch emulators (lab/eos,
// lab/nxos): the command grammar (keywords abbreviated to any unique prefix, in any case),
// SSH exec, and the line editor and prompt loop of an interactive session. What differs
// between two NOSes, the wording of a refusal and the login banner, is a Dialect; the
// commands are the emulator's own.
package clishell

import (
	"context"
	"time"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Dialect is what one NOS's CLI says in its own words.
type Dialect struct {
	// Banner is printed once when an interactive session starts, before the first prompt
	// ("\r\n" line ends; "" for none).
	Banner string
	// Refuse is the answer to a line that is not a command ("\n" line ends).
	Refuse func(r Refusal) string
	// PrivilegeRequired is the answer to a privileged command at the unprivileged level.
	PrivilegeRequired string
}

// Refusal is a line the CLI does not take, with what a dialect needs to word the refusal.
type Refusal struct {
	Kind   Failure // Invalid, Incomplete or Ambiguous
	Line   string
	Tokens []Token
	// At is the index of the token that could not be matched, len(Tokens) when the line
	// stops short of a command.
	At int
	// Indent is how far the line starts from the left edge of the screen: the prompt's width
	// in an interactive session (the echoed line follows it), 0 for exec.
	Indent int
}

// CLI answers one switch's command lines from its state. It implements sshd.Device and
// sshd.Shell.
type CLI struct {
	State *switchstate.Switch
	// Latency delays every interactive answer, for a CLI served without sshd's latency (which
	// delays every flight of the connection; the lab then leaves this 0).
	Latency time.Duration

	cmds    []*Command
	dialect Dialect
}

// New serves sw with the given vocabulary and wording. The state may change later (under
// its lock); every answer reads it afresh.
func New(sw *switchstate.Switch, d Dialect, cmds []*Command) CLI {
	return CLI{State: sw, cmds: cmds, dialect: d}
}

// answer runs one command line at the given privilege level; indent is the line's distance
// from the left edge of the screen (see Refusal). failed means out is the CLI's refusal.
func (c *CLI) answer(line string, priv bool, indent int) (out string, failed bool, act Action) {
	toks := Tokenize(line)
	if len(toks) == 0 {
		return "", false, ActNone
	}
	cmd, kind, at := Match(c.cmds, toks)
	if kind != Matched {
		return c.dialect.Refuse(Refusal{Kind: kind, Line: line, Tokens: toks, At: at, Indent: indent}), true, ActNone
	}
	if cmd.Priv && !priv {
		return c.dialect.PrivilegeRequired, true, ActNone
	}
	if cmd.Run == nil {
		return "", false, cmd.Act
	}
	c.State.Read(func(sw *switchstate.Switch) { out = cmd.Run(sw) })
	return out, false, ActNone
}

// Exec answers one command as the switch does for `ssh switch 'CMD'`: the output, or the
// refusal on stderr with exit status 1. The login is privileged, as in the shell.
func (c *CLI) Exec(_ context.Context, cmd string) (stdout, stderr string, exit int) {
	out, failed, _ := c.answer(cmd, true, 0)
	if failed {
		return "", out, 1
	}
	return out, "", 0
}
