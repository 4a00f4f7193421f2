package clishell

import (
	"strings"
	"unicode"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Token is one word of a command line and the column it starts at.
type Token struct {
	Text string
	Col  int
}

// Tokenize splits a command line on blanks; "|" is a word of its own even when unspaced
// ("show version|json"), as the EOS and NX-OS parsers read it.
func Tokenize(line string) []Token {
	var toks []Token
	start := -1
	flush := func(end int) {
		if start >= 0 {
			toks = append(toks, Token{line[start:end], start})
			start = -1
		}
	}
	for i, r := range line {
		switch {
		case unicode.IsSpace(r):
			flush(i)
		case r == '|':
			flush(i)
			toks = append(toks, Token{"|", i})
		case start < 0:
			start = i
		}
	}
	flush(len(line))
	return toks
}

// NumberWord in a command's words matches any decimal number.
const NumberWord = "<n>"

// Command is one line the CLI understands: a show command that renders the state (Run), or a
// session command that only acts on the session (Act).
type Command struct {
	Words []string
	Priv  bool // needs the privileged (#) level
	Run   func(sw *switchstate.Switch) string
	Act   Action
}

// Show is a command that prints what run renders from the state.
func Show(line string, run func(sw *switchstate.Switch) string) *Command {
	return &Command{Words: strings.Fields(line), Run: run}
}

// Session is a command that prints nothing and does act to the session.
func Session(line string, act Action) *Command {
	return &Command{Words: strings.Fields(line), Act: act}
}

// Lines are the command lines of cmds that render the state (the collector's set).
func Lines(cmds []*Command) []string {
	var out []string
	for _, c := range cmds {
		if c.Run != nil {
			out = append(out, strings.Join(c.Words, " "))
		}
	}
	return out
}

// Action is what a command does to the session besides printing.
type Action int

const (
	ActNone Action = iota
	ActExit
	ActEnable
	ActDisable
)

// Failure is why a line is not a command.
type Failure int

const (
	Matched Failure = iota
	Invalid
	Incomplete
	Ambiguous
)

// Match finds the command a line means. Keywords may be abbreviated to any unique prefix and
// are case-insensitive, as on the switch. On failure it returns the kind and the index of the
// token that could not be matched (len(toks) when the line stops short of a command).
func Match(cmds []*Command, toks []Token) (*Command, Failure, int) {
	cands := cmds
	for i, t := range toks {
		word := strings.ToLower(t.Text)
		var exact, prefix []*Command
		distinct := map[string]bool{}
		for _, c := range cands {
			if i >= len(c.Words) {
				continue
			}
			w := c.Words[i]
			switch {
			case w == word, w == NumberWord && isNumber(word):
				exact = append(exact, c)
			case w != NumberWord && w != "|" && strings.HasPrefix(w, word):
				prefix = append(prefix, c)
				distinct[w] = true
			}
		}
		switch {
		case len(exact) > 0:
			cands = exact
		case len(distinct) == 1:
			cands = prefix
		case len(distinct) > 1:
			return nil, Ambiguous, i
		default:
			return nil, Invalid, i
		}
	}
	for _, c := range cands {
		if len(c.Words) == len(toks) {
			return c, Matched, -1
		}
	}
	return nil, Incomplete, len(toks)
}

func isNumber(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
