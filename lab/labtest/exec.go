package labtest

import (
	"context"
	"testing"

	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Refusal is a command line and what an emulator must answer it with: nothing on stdout,
// Stderr and Exit ("" and 0 for a line it takes silently).
type Refusal struct {
	Cmd, Stderr string
	Exit        int
}

// ExpectRefusals runs each case through dev's Exec.
func ExpectRefusals(t testing.TB, dev sshd.Device, cases []Refusal) {
	t.Helper()
	for _, c := range cases {
		out, stderr, exit := dev.Exec(context.Background(), c.Cmd)
		if out != "" || stderr != c.Stderr || exit != c.Exit {
			t.Errorf("%q: stdout %q stderr %q exit %d, want stderr %q exit %d", c.Cmd, out, stderr, exit, c.Stderr, c.Exit)
		}
	}
}

// ExecUnderUpdates answers every command of cmds five times while the lab changes sw, which
// dev serves (run with -race): answers must read the state under its lock.
func ExecUnderUpdates(t testing.TB, sw *switchstate.Switch, dev sshd.Device, cmds []string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 50; i++ {
			sw.Update(func(sw *switchstate.Switch) { sw.Ports[0].Counters["rx_pause"]++ })
		}
	}()
	for i := 0; i < 5; i++ {
		for _, cmd := range cmds {
			if _, stderr, exit := dev.Exec(context.Background(), cmd); exit != 0 {
				t.Fatalf("%q: exit %d: %s", cmd, exit, stderr)
			}
		}
	}
	<-done
}
