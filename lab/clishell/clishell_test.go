package clishell

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// testCLI speaks a dialect that spells out every Refusal field, so the tests see what a
// NOS's Refuse is given.
func testCLI() CLI {
	d := Dialect{
		Banner: "hello\r\n",
		Refuse: func(r Refusal) string {
			return fmt.Sprintf("kind %d at %d of %d indent %d line %q\n", r.Kind, r.At, len(r.Tokens), r.Indent, r.Line)
		},
		PrivilegeRequired: "privileged\n",
	}
	return New(&switchstate.Switch{Name: "sw1"}, d, []*Command{
		Show("show name", func(sw *switchstate.Switch) string { return sw.Name + "\n" }),
		{Words: strings.Fields("show secret"), Priv: true, Run: func(*switchstate.Switch) string { return "s3cret" }},
		Session("terminal length "+NumberWord, ActNone),
		Session("terminal monitor", ActNone),
		Session("disable", ActDisable),
		Session("enable", ActEnable),
		Session("exit", ActExit),
	})
}

func TestExecRefusals(t *testing.T) {
	c := testCLI()
	for _, tc := range []struct{ cmd, stdout, stderr string }{
		{"SH   NA", "sw1\n", ""},
		{"show name|x", "", "kind 1 at 2 of 4 indent 0 line \"show name|x\"\n"},
		{"show", "", "kind 2 at 1 of 1 indent 0 line \"show\"\n"},
		{"terminal m", "", ""},
		{"term", "", "kind 2 at 1 of 1 indent 0 line \"term\"\n"},
		{"terminal length 1234567890", "", "kind 1 at 2 of 3 indent 0 line \"terminal length 1234567890\"\n"},
		{"s", "", "kind 2 at 1 of 1 indent 0 line \"s\"\n"},
		{"e", "", "kind 3 at 0 of 1 indent 0 line \"e\"\n"},
		{"show secret", "s3cret", ""},
		{"  ", "", ""},
	} {
		stdout, stderr, exit := c.Exec(context.Background(), tc.cmd)
		if stdout != tc.stdout || stderr != tc.stderr || exit != map[bool]int{true: 1}[tc.stderr != ""] {
			t.Errorf("%q: stdout %q stderr %q exit %d; want %q, %q", tc.cmd, stdout, stderr, exit, tc.stdout, tc.stderr)
		}
	}
}

// TestShellPrivilegeAndIndent: the banner comes first, a refusal is told the prompt's width,
// disable changes the prompt and refuses privileged commands, Ctrl-D logs out.
func TestShellPrivilegeAndIndent(t *testing.T) {
	c := testCLI()
	var out bytes.Buffer
	in := "shw\rdisable\rshow secret\rshow name\rbad\renable\r\x04"
	exit := c.Shell(context.Background(), struct {
		io.Reader
		io.Writer
	}{strings.NewReader(in), &out}, "xterm")
	want := "hello\r\nsw1#" +
		"shw\r\nkind 1 at 0 of 1 indent 4 line \"shw\"\r\nsw1#" +
		"disable\r\nsw1>" +
		"show secret\r\nprivileged\r\nsw1>" +
		"show name\r\nsw1\r\nsw1>" +
		"bad\r\nkind 1 at 0 of 1 indent 4 line \"bad\"\r\nsw1>" +
		"enable\r\nsw1#"
	if exit != 0 || out.String() != want {
		t.Errorf("exit %d, screen:\n%q\nwant:\n%q", exit, out.String(), want)
	}
}

func TestTokenizeColumns(t *testing.T) {
	got := fmt.Sprint(Tokenize(" show  version|json "))
	if want := "[{show 1} {version 7} {| 14} {json 15}]"; got != want {
		t.Errorf("Tokenize = %s, want %s", got, want)
	}
}
