package loginshell

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		argv []string
		sudo bool
	}{
		{"  show   version ", []string{"show", "version"}, false},
		{"sudo -n show  pfc counters", []string{"show", "pfc", "counters"}, true},
		{" sudo -n nv show system", []string{"nv", "show", "system"}, true},
		{"sudo show version", []string{"show", "version"}, true}, // NOPASSWD: no prompt without -n either
		{"sudo -nn -- ethtool -a eth0", []string{"ethtool", "-a", "eth0"}, true},
		{"sudo --non-interactive ip -j addr", []string{"ip", "-j", "addr"}, true},
		{"echo sudo -n x", []string{"echo", "sudo", "-n", "x"}, false},
		{`sonic-db-cli CONFIG_DB HGET 'PORT|Ethernet0' "mtu" a\ b`, []string{"sonic-db-cli", "CONFIG_DB", "HGET", "PORT|Ethernet0", "mtu", "a b"}, false},
		{"", nil, false},
	} {
		l, f := Parse(c.cmd)
		if f != nil || !slices.Equal(l.Argv, c.argv) || l.Sudo != c.sudo {
			t.Errorf("Parse(%q) = %q, %v, %v; want %q, %v", c.cmd, l.Argv, l.Sudo, f, c.argv, c.sudo)
		}
	}
}

func TestParseRefusesWhatSudoRefuses(t *testing.T) {
	for cmd, want := range map[string]string{
		"sudo -x show version":     "sudo: invalid option -- 'x'\n" + sudoUsage,
		"sudo -nq show version":    "sudo: invalid option -- 'q'\n" + sudoUsage,
		"sudo --nope show version": "sudo: unrecognized option '--nope'\n" + sudoUsage,
		"sudo -n":                  sudoUsage,
	} {
		if _, f := Parse(cmd); f == nil || f.Stderr != want || f.Exit != 1 {
			t.Errorf("Parse(%q) = %+v, want stderr %q exit 1", cmd, f, want)
		}
	}
}

func TestNotFound(t *testing.T) {
	if out, stderr, exit := NotFound("config", false); out != "" || stderr != "bash: line 1: config: command not found\n" || exit != 127 {
		t.Errorf("bash: %q %q %d", out, stderr, exit)
	}
	if out, stderr, exit := NotFound("config", true); out != "" || stderr != "sudo: config: command not found\n" || exit != 1 {
		t.Errorf("sudo: %q %q %d", out, stderr, exit)
	}
}

// A line that needs more of bash than word splitting is refused whole, never run in part.
func TestParseRefusesShellSyntax(t *testing.T) {
	for _, cmd := range []string{"show version; reboot", "cat /etc/passwd > /tmp/x", "echo $(id)", "ls | wc", `echo "$HOME"`, "echo 'open"} {
		if _, f := Parse(cmd); f == nil || f.Exit != 2 {
			t.Errorf("Parse(%q) = %+v, want a refusal with exit 2", cmd, f)
		}
	}
}

func TestExec(t *testing.T) {
	show := func(argv []string) (string, string, int) { return strings.Join(argv, "+") + "\n", "", 0 }
	for _, c := range []struct {
		cmd, out, stderr string
		exit             int
	}{
		{"sudo show  version", "show+version\n", "", 0},
		{"config save", "", "bash: line 1: config: command not found\n", 127},
		{"sudo -n config save", "", "sudo: config: command not found\n", 1},
		{"sudo -q show version", "", "sudo: invalid option -- 'q'\n" + sudoUsage, 1},
		{"   ", "", "", 0},
	} {
		out, stderr, exit := Exec(c.cmd, "show", show)
		if out != c.out || stderr != c.stderr || exit != c.exit {
			t.Errorf("Exec(%q) = %q, %q, %d; want %q, %q, %d", c.cmd, out, stderr, exit, c.out, c.stderr, c.exit)
		}
	}
}

// A `;`-list runs as bash runs it: in turn, `$?` the previous status, echo a builtin.
func TestExecList(t *testing.T) {
	show := func(argv []string) (string, string, int) {
		if len(argv) > 1 && argv[1] == "fail" {
			return "", "failed\n", 3
		}
		return strings.Join(argv, "+") + "\n", "", 0
	}
	for _, c := range []struct {
		cmd, out, stderr string
		exit             int
	}{
		{"show a; echo T $?; echo T >&2", "show+a\nT 0\n", "T\n", 0},
		{"show fail; echo T $?; echo T >&2; show b; echo T $?", "T 3\nshow+b\nT 0\n", "failed\nT\n", 0},
		{"config; echo $?", "127\n", "bash: line 1: config: command not found\n", 0},
		{"sudo -n show x;echo 'a b' \"c\" $? 1>&2", "show+x\n", "a b c 0\n", 0},
		{"show fail;", "", "failed\n", 3},
		{"show a; show fail", "show+a\n", "failed\n", 3},
		{"echo 'x; y'", "x; y\n", "", 0},
		{"show a;; show b", "", "bash: -c: line 1: syntax error near unexpected token `;;'\nbash: -c: line 1: `show a;; show b'\n", 2},
		{"; show b", "", "bash: -c: line 1: syntax error near unexpected token `;'\nbash: -c: line 1: `; show b'\n", 2},
		{"show a | wc; echo $?", "2\n", "lab shell: redirections, pipes, lists and expansions are not emulated: show a | wc\n", 0},
		{"echo $HOME", "", "lab shell: redirections, pipes, lists and expansions are not emulated: echo $HOME\n", 2},
		{"show 'open; echo x", "", "lab shell: redirections, pipes, lists and expansions are not emulated: show 'open; echo x\n", 2},
	} {
		out, stderr, exit := Exec(c.cmd, "show", show)
		if out != c.out || stderr != c.stderr || exit != c.exit {
			t.Errorf("Exec(%q) = %q, %q, %d; want %q, %q, %d", c.cmd, out, stderr, exit, c.out, c.stderr, c.exit)
		}
	}
}

// What a list may do around its commands without changing their output, as bash runs it:
// move its stdin aside (exec with input redirections), start a background job whose output
// goes to /dev/null, and kill that job; what else of these would print is refused.
func TestExecListJobsAndRedirections(t *testing.T) {
	show := func(argv []string) (string, string, int) { return strings.Join(argv, "+") + "\n", "", 0 }
	const watch = `{ read line <&4; kill -TERM -$$; } >/dev/null 2>&1 &`
	refused := func(cmd string) string {
		return "lab shell: redirections, pipes, lists and expansions are not emulated: " + cmd + "\n"
	}
	for _, c := range []struct {
		cmd, out, stderr string
		exit             int
	}{
		{"exec 4<&0 </dev/null; " + watch + " exec 4<&-; show a; echo T $?; kill $!", "show+a\nT 0\n", "", 0},
		{"show x >/dev/null 2>&1 & show b; kill $!; echo $?", "show+b\n0\n", "", 0},
		{"{ show a; } >/dev/null 2>/dev/null & echo $?", "0\n", "", 0},
		{"exec; echo $?", "0\n", "", 0},
		{"{ show a; } & show b", "show+b\n", refused("{ show a; }"), 0},
		{"show a 2>&1 >/dev/null & echo $?", "2\n", refused("show a 2>&1 >/dev/null"), 0},
		{"show a; kill $!", "show+a\n", refused("kill $!"), 2},
		{watch + " kill 1", "", refused("kill 1"), 2},
		{"exec >/dev/null; show a", "show+a\n", refused("exec >/dev/null"), 0},
		{"exec show a; echo $?", "2\n", refused("exec show a"), 0},
		{"echo '{ x'; echo }", "{ x\n}\n", "", 0},
		{"& show a", "", "bash: -c: line 1: syntax error near unexpected token `&'\nbash: -c: line 1: `& show a'\n", 2},
		{"show a &; show b", "", "bash: -c: line 1: syntax error near unexpected token `;'\nbash: -c: line 1: `show a &; show b'\n", 2},
		{"{ show a; echo b", "", refused("{ show a; echo b"), 2},
		{"show a && show b", "", refused("show a && show b"), 2},
	} {
		out, stderr, exit := Exec(c.cmd, "show", show)
		if out != c.out || stderr != c.stderr || exit != c.exit {
			t.Errorf("Exec(%q) = %q, %q, %d; want %q, %q, %d", c.cmd, out, stderr, exit, c.out, c.stderr, c.exit)
		}
	}
}

// `exec /bin/sh -c 'LIST'` (how a batch leaves the login shell for sh) runs LIST.
func TestExecListInSh(t *testing.T) {
	show := func(argv []string) (string, string, int) { return strings.Join(argv, "+") + "\n", "", 0 }
	out, stderr, exit := Exec(`exec /bin/sh -c 'show a; echo T $?; echo '\''q r'\'' >&2'`, "show", show)
	if out != "show+a\nT 0\n" || stderr != "q r\n" || exit != 0 {
		t.Errorf("got %q %q %d", out, stderr, exit)
	}
	// Anything but one quoted word after it is not the wrapper: refused as before.
	if _, _, exit := Exec(`exec /bin/sh -c 'show a' extra`, "show", show); exit != 127 {
		t.Errorf("exec with more words: exit %d, want exec's command not found", exit)
	}
}
