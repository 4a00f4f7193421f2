// Package loginshell is the login shell the lab's Linux-based devices (lab/linuxhost,
// lab/sonic, lab/cumulus) share for SSH exec: a command line split into words as bash splits
// one simple command, sudo run as a real host's sudo runs it for a NOPASSWD account, and bash's
// answer for a command that is not there.
package loginshell

import (
	"strconv"
	"strings"
)

// Line is one command line after bash and sudo have read it.
type Line struct {
	Argv []string // the command and its arguments, after sudo's own options
	Sudo bool     // run through sudo (which looks the command up itself)
}

// Failure is what the shell or sudo answers instead of running a command.
type Failure struct {
	Stderr string
	Exit   int
}

// sudoUsage is what sudo prints after an option it does not take (sudo 1.9, abridged to its
// first usage line, as `sudo -h` prints it).
const sudoUsage = "usage: sudo -h | -K | -k | -V\n"

// Parse reads a command line: words split on blanks, with bash's quotes and backslashes, and
// a leading `sudo [-n] [--]` with sudo's own options taken off. sudo never prompts here: the
// lab's login is NOPASSWD, so -n (never prompt) changes nothing. An option sudo does not take
// fails as sudo fails (exit 1). A line that needs more of bash than word splitting is refused
// (exit 2), never run in part.
func Parse(cmd string) (Line, *Failure) {
	argv, ok := words(cmd)
	if !ok {
		return Line{}, &Failure{"lab shell: redirections, pipes, lists and expansions are not emulated: " + cmd + "\n", 2}
	}
	if len(argv) == 0 || argv[0] != "sudo" {
		return Line{Argv: argv}, nil
	}
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		opt := argv[i]
		if opt == "--" {
			i++
			break
		}
		if opt == "--non-interactive" {
			continue
		}
		if strings.HasPrefix(opt, "--") {
			return Line{}, &Failure{"sudo: unrecognized option '" + opt + "'\n" + sudoUsage, 1}
		}
		for _, r := range opt[1:] {
			if r != 'n' {
				return Line{}, &Failure{"sudo: invalid option -- '" + string(r) + "'\n" + sudoUsage, 1}
			}
		}
	}
	if i == len(argv) {
		return Line{}, &Failure{sudoUsage, 1}
	}
	return Line{Argv: argv[i:], Sudo: true}, nil
}

// NotFound is what bash (or sudo, which looks the command up itself) says for a command that
// is not there.
func NotFound(name string, sudo bool) (stdout, stderr string, exit int) {
	if sudo {
		return "", "sudo: " + name + ": command not found\n", 1
	}
	return "", "bash: line 1: " + name + ": command not found\n", 127
}

// NotEmulated answers a command line the real device takes but the lab does not render: an
// honest failure (exit 1), never a made-up output.
func NotEmulated(argv []string) (stdout, stderr string, exit int) {
	return "", "lab: `" + strings.Join(argv, " ") + "` is a valid command line that this emulated device does not render\n", 1
}

// words splits a line as bash does for one simple command: blanks separate words, '...' is
// literal, "..." is literal but for expansions, a backslash escapes the next character. ok is
// false when the line needs more of bash (an operator, an expansion, an unclosed quote).
func words(line string) (argv []string, ok bool) { return split(line, nil) }

// operator marks the bytes that, unquoted and unescaped, need more of bash than word
// splitting (a table: strings.IndexByte on every byte of a batch was a twentieth of it).
var operator = func() (t [256]bool) {
	for _, c := range []byte(";&|<>()$`\n\\") {
		t[c] = true
	}
	return t
}()

// wordEnd marks the bytes that end or change a plain word: blanks, quotes, and the operator
// bytes ($ and the backslash among them).
var wordEnd = func() (t [256]bool) {
	t = operator
	t[' '], t['\t'], t['\''], t['"'] = true, true, true, true
	return t
}()

// split is words where status, when not nil, is what `$?` expands to outside single quotes
// (echo's one expansion); any other expansion still refuses the line. A word without quotes,
// escapes or `$?` is a substring of line (no copy: most words are, and copying them byte by
// byte was a third of the lab's shell).
func split(line string, status *int) (argv []string, ok bool) {
	var w strings.Builder
	inWord := false
	start := -1            // while the word is line[start:i]; -1 once it is built in w
	built := func(i int) { // the word goes on in w from here
		if w.Cap() == 0 {
			w.Grow(len(line) - i) // the rest of the line bounds the word but for $? (a batch is one word)
		}
		if start >= 0 {
			w.WriteString(line[start:i])
			start = -1
		}
	}
	flush := func(i int) {
		if inWord {
			if start >= 0 {
				argv = append(argv, line[start:i])
			} else {
				argv = append(argv, w.String())
				w.Reset()
			}
			inWord, start = false, -1
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if start >= 0 && !wordEnd[c] {
			continue // a plain word goes on
		}
		switch {
		case c == ' ' || c == '\t':
			flush(i)
		case status != nil && c == '$' && i+1 < len(line) && line[i+1] == '?':
			built(i)
			w.WriteString(strconv.Itoa(*status))
			inWord = true
			i++
		case c == '\\' && i+1 < len(line):
			built(i)
			i++
			w.WriteByte(line[i])
			inWord = true
		case c == '\'' || c == '"':
			built(i)
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			quoted := line[i+1 : i+1+end]
			if c == '"' && status != nil {
				quoted = strings.ReplaceAll(quoted, "$?", strconv.Itoa(*status))
			}
			if c == '"' && strings.ContainsAny(quoted, "$`\\") {
				return nil, false
			}
			w.WriteString(quoted)
			inWord = true
			i += end + 1
		case operator[c]:
			return nil, false
		case !inWord:
			inWord, start = true, i
		case start < 0:
			w.WriteByte(c)
		}
	}
	flush(len(line))
	return argv, true
}

// Exec answers cmd on a device whose one program the lab renders is program (SONiC's show,
// NVUE's nv): run gets each command line of a `;`-list (see List), program first; a refused
// line gets the shell's or sudo's answer, any other program bash's "command not found", an
// empty line nothing.
func Exec(cmd, program string, run func(argv []string) (stdout, stderr string, exit int)) (string, string, int) {
	return List(cmd, func(c string) (string, string, int) { return execOne(c, program, run) })
}

// execOne is Exec for one simple command.
func execOne(cmd, program string, run func(argv []string) (stdout, stderr string, exit int)) (string, string, int) {
	line, fail := Parse(cmd)
	switch {
	case fail != nil:
		return "", fail.Stderr, fail.Exit
	case len(line.Argv) == 0:
		return "", "", 0
	case line.Argv[0] != program:
		return NotFound(line.Argv[0], line.Sudo)
	}
	return run(line.Argv)
}
