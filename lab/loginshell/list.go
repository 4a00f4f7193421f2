package loginshell

import (
	"strings"
)

// List runs a line as bash runs a `;`-list (also when handed to sh by `exec /bin/sh -c`): each command in turn, `$?` the status of the one
// before, the line's status the last one's. echo is bash's builtin (its words, `$?`, and a
// trailing `>&2`); any other command goes to one, which answers one simple command. An empty
// command between two `;` is bash's syntax error: nothing runs. A line without `;` goes to
// one whole, so what one refuses stays refused.
func List(line string, one func(cmd string) (stdout, stderr string, exit int)) (string, string, int) {
	// `exec /bin/sh -c 'LIST'` runs LIST in sh, which is the shell emulated here anyway.
	if rest, ok := strings.CutPrefix(line, "exec /bin/sh -c "); ok {
		if w, ok := words(rest); ok && len(w) == 1 {
			line = w[0]
		}
	}
	cmds, ok := splitList(line)
	if !ok || len(cmds) == 1 && !isEcho(cmds[0]) {
		return one(line)
	}
	for i, c := range cmds {
		if strings.TrimSpace(c) == "" && (i < len(cmds)-1 || len(cmds) == 1) {
			tok := ";"
			if i > 0 && c == "" {
				tok = ";;" // bash reads two adjacent `;` as one token
			}
			return "", "bash: -c: line 1: syntax error near unexpected token `" + tok + "'\nbash: -c: line 1: `" + line + "'\n", 2
		}
	}
	var stdout, stderr strings.Builder
	status := 0
	for _, c := range cmds {
		if strings.TrimSpace(c) == "" {
			continue // the trailing `;` of "a;"
		}
		var out, errOut string
		if isEcho(c) {
			out, errOut, status = echo(c, status)
		} else {
			out, errOut, status = one(strings.TrimSpace(c))
		}
		stdout.WriteString(out)
		stderr.WriteString(errOut)
	}
	return stdout.String(), stderr.String(), status
}

// splitList cuts line at the `;` outside quotes; ok is false for an unclosed quote.
func splitList(line string) (cmds []string, ok bool) {
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '\'', '"':
			end := strings.IndexByte(line[i+1:], line[i])
			if end < 0 {
				return nil, false
			}
			i += end + 1
		case ';':
			cmds = append(cmds, line[start:i])
			start = i + 1
		}
	}
	return append(cmds, line[start:]), true
}

func isEcho(cmd string) bool {
	f := strings.Fields(cmd)
	return len(f) > 0 && f[0] == "echo"
}

// echo is bash's builtin: its words split and quoted as bash does, `$?` is status (outside
// single quotes), a last word `>&2` sends the line to stderr. Other expansions and
// redirections are refused as Parse refuses them.
func echo(cmd string, status int) (stdout, stderr string, exit int) {
	refused := func() (string, string, int) {
		return "", "lab shell: redirections, pipes, lists and expansions are not emulated: " + strings.TrimSpace(cmd) + "\n", 2
	}
	line := strings.TrimSpace(cmd)
	toErr := false
	for _, r := range []string{" >&2", " 1>&2"} {
		if rest, ok := strings.CutSuffix(line, r); ok {
			line, toErr = rest, true
			break
		}
	}
	args, ok := split(strings.TrimPrefix(line, "echo"), &status)
	if !ok {
		return refused()
	}
	out := strings.Join(args, " ") + "\n"
	if toErr {
		return "", out, 0
	}
	return out, "", 0
}
