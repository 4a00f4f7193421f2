package eos

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	labtest.ExpectRefusals(t, New(Leaf3()), []labtest.Refusal{
		{Cmd: "show foo", Stderr: "% Invalid input (at token 1: 'foo')\n", Exit: 1},
		{Cmd: "configure terminal", Stderr: "% Invalid input (at token 0: 'configure')\n", Exit: 1},
		{Cmd: "reload", Stderr: "% Invalid input (at token 0: 'reload')\n", Exit: 1},
		{Cmd: "show running-config | json", Stderr: "% Invalid input (at token 2: '|')\n", Exit: 1},
		{Cmd: "show version", Stderr: "% Incomplete command\n", Exit: 1},
		{Cmd: "show", Stderr: "% Incomplete command\n", Exit: 1},
		{Cmd: "e", Stderr: "% Ambiguous command\n", Exit: 1},
		{Cmd: "terminal length zero", Stderr: "% Invalid input (at token 2: 'zero')\n", Exit: 1},
		{Cmd: "terminal length 0", Stderr: "", Exit: 0},
		{Cmd: "", Stderr: "", Exit: 0},
	})
}

// TestExecAbbreviations: the CLI takes unique prefixes, any case and extra blanks, as EOS does.
func TestExecAbbreviations(t *testing.T) {
	labtest.ExpectAbbreviations(t, New(Leaf3()), map[string]string{
		"show version | json":         "sh ver|js",
		"show interfaces flowcontrol": "SHOW  int   flow",
		"show running-config":         "sh run",
	}, nil)
}

// TestAnswersFollowTheState: a change to the state shows in the next answer.
func TestAnswersFollowTheState(t *testing.T) {
	sw := Leaf3()
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
	sw := Leaf3()
	labtest.ExecUnderUpdates(t, sw, New(sw), Commands())
}
