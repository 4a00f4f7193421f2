package eos

import (
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/labtest"
)

// TestShellTranscript types a session's keystrokes and checks the screen byte for byte:
// echo, CRLF and lone CR or LF as Enter, a swallowed arrow key, backspace, Ctrl-C, the
// unprivileged prompt and its refusal, and exit ending the session.
func TestShellTranscript(t *testing.T) {
	in := "terminal length 0\r\n" +
		"sh\x1b[Aow foo\n" +
		"abc\x7f\x7f\x7f\x03" +
		"disable\r" +
		"show running-config\r" +
		"enable\r\n" +
		"exit\r\n" +
		"show version | json\r\n" // after exit: never read
	want := "leaf3#" +
		"terminal length 0\r\nleaf3#" +
		"show foo\r\n% Invalid input (at token 1: 'foo')\r\nleaf3#" +
		"abc\b \b\b \b\b \b^C\r\nleaf3#" +
		"disable\r\nleaf3>" +
		"show running-config\r\n% Invalid input (privileged mode required)\r\nleaf3>" +
		"enable\r\nleaf3#" +
		"exit\r\n"
	labtest.ExpectTranscript(t, New(Leaf3()), in, want)
}

func TestShellEndsWithContext(t *testing.T) {
	labtest.ExpectShellEndsWithContext(t, New(Leaf3()))
}

// TestScrapligoSession: scrapligo's arista_eos driver, as the interactive collector uses it, gets
// every collector command back as exec renders it and sees EOS's token refusal as a failure.
func TestScrapligoSession(t *testing.T) {
	labtest.ExpectScrapliSession(t, "arista_eos", New(Leaf3()), Commands(), func(result string) bool {
		return result == "% Invalid input (at token 1: 'foo')"
	})
}

// TestShellLatency: every answer waits Latency, as sshd makes exec wait.
func TestShellLatency(t *testing.T) {
	dev := New(Leaf3())
	dev.Latency = 40 * time.Millisecond
	labtest.ExpectShellLatency(t, dev, dev.Latency)
}
