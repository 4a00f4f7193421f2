package labtest

import (
	"context"
	"strings"
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

// ExpectAbbreviations checks that each abbreviated line of abbrevs (full line -> abbreviated)
// succeeds with the full line's output, which ends in a newline. same reduces both outputs
// to what must match (nil: all of it).
func ExpectAbbreviations(t testing.TB, dev sshd.Device, abbrevs map[string]string, same func(full, out string) string) {
	t.Helper()
	if same == nil {
		same = func(_, out string) string { return out }
	}
	for full, short := range abbrevs {
		want, _, _ := dev.Exec(context.Background(), full)
		got, stderr, exit := dev.Exec(context.Background(), short)
		if exit != 0 || same(full, got) != same(full, want) || !strings.HasSuffix(got, "\n") {
			t.Errorf("%q: exit %d stderr %q, output differs from %q", short, exit, stderr, full)
		}
	}
}

// ExpectProblems checks that err, what Validate says of a state with the faults accepted
// describes, names each of wants.
func ExpectProblems(t testing.TB, err error, accepted string, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("Validate accepted " + accepted)
	}
	for _, want := range wants {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error lacks %q:\n%v", want, err)
		}
	}
}
