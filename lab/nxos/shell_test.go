package nxos

import (
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/labtest"
)

// TestShellTranscript types a session's keystrokes and checks the screen byte for byte:
// banner, echo, CRLF and lone CR or LF as Enter, a swallowed arrow key, backspace, Ctrl-C, a
// caret that counts the prompt, and exit ending the session.
func TestShellTranscript(t *testing.T) {
	in := "terminal length 0\r\n" +
		"sh\x1b[Aow foo\n" +
		"abc\x7f\x7f\x7f\x03" +
		"exit\r\n" +
		"show version | json\r\n" // after exit: never read
	want := banner + "leaf4#" +
		"terminal length 0\r\nleaf4#" +
		"show foo\r\n           ^\r\n% Invalid command at '^' marker.\r\nleaf4#" +
		"abc\b \b\b \b\b \b^C\r\nleaf4#" +
		"exit\r\n"
	labtest.ExpectTranscript(t, New(Leaf4()), in, want)
}

func TestShellEndsWithContext(t *testing.T) {
	labtest.ExpectShellEndsWithContext(t, New(Leaf4()))
}

// TestScrapligoSession: scrapligo's cisco_nxos driver, as the interactive collector uses it, gets
// every collector command back as exec renders it and sees the NX-OS caret refusal as a failure.
func TestScrapligoSession(t *testing.T) {
	dev := New(Leaf4())
	dev.Now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	labtest.ExpectScrapliSession(t, "cisco_nxos", dev, Commands(), func(result string) bool {
		return strings.HasSuffix(result, "^\n% Invalid command at '^' marker.")
	})
}

// TestShellLatency: every answer waits Latency, as sshd makes exec wait.
func TestShellLatency(t *testing.T) {
	dev := New(Leaf4())
	dev.Latency = 40 * time.Millisecond
	labtest.ExpectShellLatency(t, dev, dev.Latency)
}
