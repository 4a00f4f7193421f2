package eos

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	dev := New(leaf3())
	for _, c := range []struct {
		cmd, stderr string
		exit        int
	}{
		{"show foo", "% Invalid input (at token 1: 'foo')\n", 1},
		{"configure terminal", "% Invalid input (at token 0: 'configure')\n", 1},
		{"reload", "% Invalid input (at token 0: 'reload')\n", 1},
		{"show running-config | json", "% Invalid input (at token 2: '|')\n", 1},
		{"show version", "% Incomplete command\n", 1},
		{"show", "% Incomplete command\n", 1},
		{"e", "% Ambiguous command\n", 1},
		{"terminal length zero", "% Invalid input (at token 2: 'zero')\n", 1},
		{"terminal length 0", "", 0},
		{"", "", 0},
	} {
		out, stderr, exit := dev.Exec(context.Background(), c.cmd)
		if out != "" || stderr != c.stderr || exit != c.exit {
			t.Errorf("%q: stdout %q stderr %q exit %d, want stderr %q exit %d", c.cmd, out, stderr, exit, c.stderr, c.exit)
		}
	}
}

// TestExecAbbreviations: the CLI takes unique prefixes, any case and extra blanks, as EOS does.
func TestExecAbbreviations(t *testing.T) {
	dev := New(leaf3())
	for full, short := range map[string]string{
		"show version | json":         "sh ver|js",
		"show interfaces flowcontrol": "SHOW  int   flow",
		"show running-config":         "sh run",
	} {
		want, _, _ := dev.Exec(context.Background(), full)
		got, stderr, exit := dev.Exec(context.Background(), short)
		if exit != 0 || got != want || !strings.HasSuffix(got, "\n") {
			t.Errorf("%q: exit %d stderr %q, output differs from %q", short, exit, stderr, full)
		}
	}
}

// TestAnswersFollowTheState: a change to the state shows in the next answer.
func TestAnswersFollowTheState(t *testing.T) {
	sw := leaf3()
	dev := New(sw)
	before, _, _ := dev.Exec(context.Background(), "show running-config")
	sw.Update(func(sw *switchstate.Switch) { sw.Port("Ethernet4").MTU = 9000 })
	after, _, _ := dev.Exec(context.Background(), "show running-config")
	if strings.Contains(before, "   mtu 9000\n") || !strings.Contains(after, "   description gpu08_ens1f0np0\n   mtu 9000\n") {
		t.Errorf("running-config did not follow the MTU change:\n%s", after)
	}
}

// TestConcurrentUpdates: answers read the state under its lock while the lab changes it
// (run with -race).
func TestConcurrentUpdates(t *testing.T) {
	sw := leaf3()
	dev := New(sw)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 50; i++ {
			sw.Update(func(sw *switchstate.Switch) { sw.Ports[0].Counters["rx_pause"]++ })
		}
	}()
	for i := 0; i < 5; i++ {
		for _, cmd := range Commands() {
			if _, stderr, exit := dev.Exec(context.Background(), cmd); exit != 0 {
				t.Fatalf("%q: exit %d: %s", cmd, exit, stderr)
			}
		}
	}
	<-done
}
