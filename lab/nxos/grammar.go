package nxos

import (
	"strings"
	"unicode"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// token is one word of a command line and the column it starts at.
type token struct {
	text string
	col  int
}

// tokenize splits a command line on blanks; "|" is a word of its own even when unspaced
// ("show version|json"), as the NX-OS parser reads it.
func tokenize(line string) []token {
	var toks []token
	start := -1
	flush := func(end int) {
		if start >= 0 {
			toks = append(toks, token{line[start:end], start})
			start = -1
		}
	}
	for i, r := range line {
		switch {
		case unicode.IsSpace(r):
			flush(i)
		case r == '|':
			flush(i)
			toks = append(toks, token{"|", i})
		case start < 0:
			start = i
		}
	}
	flush(len(line))
	return toks
}

// numberWord in a command's words matches any decimal number.
const numberWord = "<n>"

// command is one line the CLI understands.
type command struct {
	words []string
	run   func(sw *switchstate.Switch) string
	act   action
}

// action is what a command does to the session besides printing.
type action int

const (
	actNone action = iota
	actExit
)

// failKind is why a line is not a command.
type failKind int

const (
	failNone failKind = iota
	failInvalid
	failIncomplete
	failAmbiguous
)

// match finds the command a line means. Keywords may be abbreviated to any unique prefix and
// are case-insensitive, as on the switch. On failure it returns the kind and the index of the
// token that could not be matched (len(toks) when the line stops short of a command).
func match(cmds []*command, toks []token) (*command, failKind, int) {
	cands := cmds
	for i, t := range toks {
		word := strings.ToLower(t.text)
		var exact, prefix []*command
		distinct := map[string]bool{}
		for _, c := range cands {
			if i >= len(c.words) {
				continue
			}
			w := c.words[i]
			switch {
			case w == word, w == numberWord && isNumber(word):
				exact = append(exact, c)
			case w != numberWord && w != "|" && strings.HasPrefix(w, word):
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
			return nil, failAmbiguous, i
		default:
			return nil, failInvalid, i
		}
	}
	for _, c := range cands {
		if len(c.words) == len(toks) {
			return c, failNone, -1
		}
	}
	return nil, failIncomplete, len(toks)
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
