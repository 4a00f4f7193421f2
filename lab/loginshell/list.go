package loginshell

import (
	"regexp"
	"strings"
	"unicode"
)

// List runs a line as bash runs a list (also when handed to sh by `exec /bin/sh -c`): each
// command in turn, `$?` the status of the one before, the line's status the last one's. echo
// is bash's builtin (its words, `$?`, and a trailing `>&2`); exec with only input
// redirections, a background job (`&`) whose output goes to /dev/null and `kill $!` are the
// other builtins emulated (see builtin); any other command goes to one, which answers one
// simple command. An empty command before a `;` or `&` is bash's syntax error: nothing runs.
// A line of one simple command goes to one whole, so what one refuses stays refused.
func List(line string, one func(cmd string) (stdout, stderr string, exit int)) (string, string, int) {
	// `exec /bin/sh -c 'LIST'` runs LIST in sh, which is the shell emulated here anyway.
	if rest, ok := strings.CutPrefix(line, "exec /bin/sh -c "); ok {
		if w, ok := words(rest); ok && len(w) == 1 {
			line = w[0]
		}
	}
	cmds, ok := splitList(line)
	if !ok || len(cmds) == 1 && !cmds[0].async && !isEcho(cmds[0].text) {
		return one(line)
	}
	for i, c := range cmds {
		if strings.TrimSpace(c.text) == "" && (i < len(cmds)-1 || len(cmds) == 1 || c.async) {
			tok := c.end()
			if i > 0 && c.text == "" && !c.async && !cmds[i-1].async {
				tok = ";;" // bash reads two adjacent `;` as one token
			}
			return "", "bash: -c: line 1: syntax error near unexpected token `" + tok + "'\nbash: -c: line 1: `" + line + "'\n", 2
		}
	}
	// The outputs are joined once at the end: a builder grown command by command copied an
	// 8-rail host's list output several times over (growslice was a tenth of a batched audit).
	stdout, stderr := make([]string, 0, len(cmds)), make([]string, 0, len(cmds))
	status := 0
	job := false // a background job runs (see background)
	for _, c := range cmds {
		if strings.TrimSpace(c.text) == "" {
			continue // the trailing `;` of "a;"
		}
		out, errOut, exit, ok := builtin(c, status, &job)
		if !ok {
			out, errOut, exit = one(strings.TrimSpace(c.text))
		}
		stdout, stderr, status = append(stdout, out), append(stderr, errOut), exit
	}
	return strings.Join(stdout, ""), strings.Join(stderr, ""), status
}

// command is one command of a list; async when `&` ended it.
type command struct {
	text  string
	async bool
}

func (c command) end() string {
	if c.async {
		return "&"
	}
	return ";"
}

// splitList cuts line at the `;` and `&` outside quotes and `{ ...; }` groups (not the `&`
// of a redirection such as `2>&1`, nor `&&`); ok is false for an unclosed quote or group.
func splitList(line string) (cmds []command, ok bool) {
	start, depth := 0, 0
	for i := 0; i < len(line); i++ {
		if !listByte[line[i]] {
			continue // no case below takes it
		}
		switch c := line[i]; {
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			i += end + 1
		case c == '{' && reservedAt(line, start, i):
			depth++
		case c == '}' && depth > 0 && afterSeparator(line[:i]) && (i+1 == len(line) || strings.IndexByte(" \t;&<>", line[i+1]) >= 0):
			depth--
		case depth > 0:
		case c == ';':
			cmds = append(cmds, command{text: line[start:i]})
			start = i + 1
		case c == '&' && i+1 < len(line) && line[i+1] == '&':
			i++ // `&&` stays in its command, which one refuses
		case c == '&' && (i == 0 || line[i-1] != '>' && line[i-1] != '<'):
			cmds = append(cmds, command{text: line[start:i], async: true})
			start = i + 1
		}
	}
	if depth > 0 {
		return nil, false
	}
	return append(cmds, command{text: line[start:]}), true
}

// listByte marks the bytes splitList acts on; the others are skipped at the cost of a table
// lookup (the switch on every byte of a batch was a fifteenth of a host's audit).
var listByte = func() (t [256]bool) {
	for _, c := range []byte("\\'\"{};&") {
		t[c] = true
	}
	return t
}()

// reservedAt reports whether the `{` at i is the reserved word: it opens a command (nothing
// but blanks and other `{` since the command's start) and a blank follows it.
func reservedAt(line string, start, i int) bool {
	return strings.Trim(line[start:i], " \t{") == "" && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t')
}

// afterSeparator reports whether s ends, blanks aside, in `;` or `&`: where `}` is reserved.
func afterSeparator(s string) bool {
	s = strings.TrimRight(s, " \t")
	return strings.HasSuffix(s, ";") || strings.HasSuffix(s, "&")
}

// builtin is the shell's own answer to c, where the lab emulates one. The lab's commands act
// only through their output and read no input, which is what makes these honest:
//   - echo, as bash's (see echo);
//   - exec with only redirections that leave stdout and stderr alone (`exec 3<&0 </dev/null`,
//     `exec 3<&-`): they change no output, status 0;
//   - a background job whose stdout and stderr both go to /dev/null: nothing of it can
//     reach the client, so it is not run but taken as running until `kill $!` ends it (or
//     the line does), its status 0 as bash's is for any background job;
//   - `kill $!` while that job runs: status 0.
//
// Anything else of these (a background job that prints, exec of a command, kill of another
// process) is refused as Parse refuses what it does not emulate.
func builtin(c command, status int, job *bool) (stdout, stderr string, exit int, ok bool) {
	refused := func() (string, string, int, bool) {
		return "", "lab shell: redirections, pipes, lists and expansions are not emulated: " + strings.TrimSpace(c.text) + "\n", 2, true
	}
	if !c.async { // most commands are no builtin, and half of a batch's are its echo markers
		switch firstWord(c.text) {
		case "echo":
			stdout, stderr, exit = echo(c.text, status)
			return stdout, stderr, exit, true
		case "exec", "kill":
		default:
			return "", "", 0, false
		}
	}
	f := strings.Fields(c.text)
	switch {
	case c.async:
		body, out := redirected(f)
		if len(body) == 0 || out[1] != devNull || out[2] != devNull {
			return refused()
		}
		*job = true
		return "", "", 0, true
	case f[0] == "exec":
		if body, out := redirected(f[1:]); len(body) > 0 || out[1] != client || out[2] != client {
			return refused()
		}
		return "", "", 0, true
	case f[0] == "kill":
		if len(f) != 2 || f[1] != "$!" || !*job {
			return refused()
		}
		*job = false
		return "", "", 0, true
	}
	return "", "", 0, false
}

// Where a command's stdout (1) and stderr (2) go.
const (
	client  = ""
	devNull = "/dev/null"
)

// redirection is one redirection word: [n]>/dev/null, [n]>&m, [n]<&m, [n]<&-, [n]</dev/null.
var redirection = regexp.MustCompile(`^([0-9]?)(>|<)(/dev/null|&[0-9]|&-)$`)

// redirected splits f into the command's words and its trailing redirections, applied in
// order to stdout and stderr: out[1] and out[2] say where each ends up. Input redirections
// and descriptors above 2 change neither.
func redirected(f []string) (body []string, out [3]string) {
	n := len(f)
	var words [][]string // the trailing redirections' parts, last first
	for ; n > 0; n-- {
		m := redirection.FindStringSubmatch(f[n-1])
		if m == nil {
			break
		}
		words = append(words, m)
	}
	for i := len(words) - 1; i >= 0; i-- {
		m := words[i]
		fd := 0 // a redirection's default descriptor: stdin for <, stdout for >
		if m[2] == ">" {
			fd = 1
		}
		if m[1] != "" {
			fd = int(m[1][0] - '0')
		}
		if fd != 1 && fd != 2 {
			continue
		}
		switch to := m[3]; {
		case to == devNull:
			out[fd] = devNull
		case to == "&1" || to == "&2":
			out[fd] = out[to[1]-'0']
		default: // closed, or moved to a descriptor the lab does not follow
			out[fd] = to
		}
	}
	return f[:n], out
}

func isEcho(cmd string) bool { return firstWord(cmd) == "echo" }

// firstWord is strings.Fields(s)[0], "" when s is blank, without splitting the rest of s.
func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
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
	n := len(args) // the blanks between the words and the newline
	for _, a := range args {
		n += len(a)
	}
	var b strings.Builder
	b.Grow(n)
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	b.WriteByte('\n')
	out := b.String()
	if toErr {
		return "", out, 0
	}
	return out, "", 0
}
