package sonic

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// smallLeaf is a small healthy switch.
func smallLeaf() *switchstate.Switch {
	return NewState("leaf1", "98:03:9b:10:01:00", "Ethernet0", "Ethernet4", "Ethernet8")
}

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	labtest.ExpectRefusals(t, New(smallLeaf()), []labtest.Refusal{
		{Cmd: "config interface mtu Ethernet0 1500", Stderr: "bash: line 1: config: command not found\n", Exit: 127},
		{Cmd: "sudo -n config save -y", Stderr: "sudo: config: command not found\n", Exit: 1},
		{Cmd: "sonic-db-cli CONFIG_DB HSET 'PORT|Ethernet0' mtu 1500", Stderr: "bash: line 1: sonic-db-cli: command not found\n", Exit: 127},
		{Cmd: "show interfaces status", Stderr: "lab: `show interfaces status` is a valid command line that this emulated device does not render\n", Exit: 1},
		{Cmd: "show version && reboot", Stderr: "lab shell: redirections, pipes, lists and expansions are not emulated: show version && reboot\n", Exit: 2},
		{Cmd: "show version | reboot", Stderr: "lab shell: redirections, pipes, lists and expansions are not emulated: show version | reboot\n", Exit: 2},
		{Cmd: "reboot; config save", Stderr: "bash: line 1: reboot: command not found\nbash: line 1: config: command not found\n", Exit: 127},
		{Cmd: "show lldp tabel", Stderr: "Usage: show lldp [OPTIONS] COMMAND [ARGS]...\nTry \"show lldp -h\" for help.\n\nError: No such command \"tabel\".\n", Exit: 2},
		{Cmd: "sudo -n show versoin", Stderr: "Usage: show [OPTIONS] COMMAND [ARGS]...\nTry \"show -h\" for help.\n\nError: No such command \"versoin\".\n", Exit: 2},
		{Cmd: "show version now", Stderr: "Usage: show version [OPTIONS]\nTry \"show version -h\" for help.\n\nError: Got unexpected extra argument (now)\n", Exit: 2},
		{Cmd: "show p counters", Stderr: "Usage: show [OPTIONS] COMMAND [ARGS]...\nTry \"show -h\" for help.\n\nError: Too many matches: pfc, platform\n", Exit: 2},
		{Cmd: "show runningconfiguration --all", Stderr: "Usage: show runningconfiguration [OPTIONS] COMMAND [ARGS]...\nTry \"show runningconfiguration -h\" for help.\n\nError: no such option: --all\n", Exit: 2},
		{Cmd: "", Stderr: "", Exit: 0},
	})
}

// TestAnswersFollowTheState: a change to the state shows in the next answer.
func TestAnswersFollowTheState(t *testing.T) {
	sw := smallLeaf()
	dev := New(sw)
	before, _, _ := dev.Exec(context.Background(), "show runningconfiguration all")
	sw.Update(func(sw *switchstate.Switch) { sw.Port("Ethernet4").MTU = 9000 })
	after, _, _ := dev.Exec(context.Background(), "show runningconfiguration all")
	if strings.Contains(before, `"mtu": "9000"`) || strings.Count(after, `"mtu": "9000"`) != 1 {
		t.Errorf("running config did not follow the MTU change:\n%s", after)
	}
}

// SONiC's show takes any unique prefix of a command (sonic-utilities AliasedGroup), and sudo
// runs it the same.
func TestExecAbbreviations(t *testing.T) {
	dev := New(smallLeaf())
	for abbrev, full := range map[string]string{
		"show ver":               "show version",
		"show run all":           "show runningconfiguration all",
		"sudo show lldp t":       "show lldp table",
		"show pf   counters":     "show pfc counters",
		"sudo -n show q counter": "show queue counters",
	} {
		want, _, _ := dev.Exec(context.Background(), full)
		got, stderr, exit := dev.Exec(context.Background(), abbrev)
		if want == "" || got != want || stderr != "" || exit != 0 {
			t.Errorf("%q = %q, %q, %d; want what %q answers", abbrev, got, stderr, exit, full)
		}
	}
	if out, _, exit := dev.Exec(context.Background(), "show lldp"); exit != 0 || !strings.Contains(out, "Commands:\n  neighbors\n  table\n") {
		t.Errorf("a group without a command prints its help: %q, %d", out, exit)
	}
}
