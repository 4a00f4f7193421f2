package cumulus

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// smallLeaf is a small healthy switch.
func smallLeaf() *switchstate.Switch {
	return NewState("leaf2", "98:03:9b:10:02:00", "swp1", "swp2", "swp3")
}

// notRendered is the lab's answer to a real NVUE command it does not render.
func notRendered(cmd string) string {
	return "lab: `" + cmd + "` is a valid command line that this emulated device does not render\n"
}

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	labtest.ExpectRefusals(t, New(smallLeaf()), []labtest.Refusal{
		{Cmd: "nv set interface swp1 link mtu 1500", Stderr: notRendered("nv set interface swp1 link mtu 1500"), Exit: 1},
		{Cmd: "nv config apply -y", Stderr: notRendered("nv config apply -y"), Exit: 1},
		{Cmd: "sudo -n nv unset qos roce", Stderr: notRendered("nv unset qos roce"), Exit: 1},
		{Cmd: "nv show interface swp1 qos roce", Stderr: notRendered("nv show interface swp1 qos roce"), Exit: 1},
		{Cmd: "nv show qos roce && reboot", Stderr: "lab shell: redirections, pipes, lists and expansions are not emulated: nv show qos roce && reboot\n", Exit: 2},
		{Cmd: "nv show qos roce | reboot", Stderr: "lab shell: redirections, pipes, lists and expansions are not emulated: nv show qos roce | reboot\n", Exit: 2},
		{Cmd: "reboot; nv config apply -y", Stderr: "bash: line 1: reboot: command not found\n" + notRendered("nv config apply -y"), Exit: 1},
		{Cmd: "nv show interface swp1 qos pfcc", Stderr: nvueInvalid("nv show interface swp1 qos", "pfcc"), Exit: 1},
		{Cmd: "nv show systme", Stderr: nvueInvalid("nv show", "systme"), Exit: 1},
		{Cmd: "nv shw system", Stderr: nvueInvalid("nv", "shw"), Exit: 1},
		{Cmd: "nv show interface swp1 link extra", Stderr: nvueInvalid("nv show interface swp1 link", "extra"), Exit: 1},
		{Cmd: "ip link set swp1 mtu 1500", Stderr: "bash: line 1: ip: command not found\n", Exit: 127},
		{Cmd: "nv show interface swp9 link", Stderr: ItemMissing, Exit: 1},
		{Cmd: "", Stderr: "", Exit: 0},
	})
}

// TestAnswersFollowTheState: a change to the state shows in the next answer, and a change RoCE
// mode cannot express turns RoCE off switch-wide.
func TestAnswersFollowTheState(t *testing.T) {
	sw := smallLeaf()
	dev := New(sw)
	before, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp2").MTU = 9000 })
	after, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	if strings.Contains(before, "9000") || !strings.Contains(after, "mtu             9000         9000     9000\n") {
		t.Errorf("link did not follow the MTU change:\n%s", after)
	}
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp3").TrustDSCP = false })
	roce, _, _ := dev.Exec(context.Background(), "nv show qos roce")
	mapping, _, _ := dev.Exec(context.Background(), "nv show interface swp3 qos mapping")
	if !strings.HasPrefix(roce, "        operational  applied\n------  -----------  -------\nenable               off\n") ||
		!strings.Contains(mapping, "trust            l2\n") {
		t.Errorf("RoCE did not turn off for a port trusting PCP:\n%s\n%s", roce, mapping)
	}
}

// A per-port answer keeps the switch's regime between commands and decides it again after an
// Update: a port that stops trusting DSCP turns RoCE off, so another port's RoCE status is gone.
func TestPerPortAnswersFollowTheRegime(t *testing.T) {
	sw := smallLeaf()
	dev := New(sw)
	const status = "nv show interface swp1 qos roce status"
	if _, stderr, exit := dev.Exec(context.Background(), status); exit != 0 {
		t.Fatalf("RoCE mode: exit %d %q", exit, stderr)
	}
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp3").TrustDSCP = false })
	if _, stderr, exit := dev.Exec(context.Background(), status); exit != 1 || stderr != ItemMissing {
		t.Errorf("after swp3 stopped trusting DSCP: exit %d %q, want the missing item", exit, stderr)
	}
	labtest.ExecUnderUpdates(t, sw, dev, []string{"nv show interface swp1 qos mapping", "nv show interface swp2 link"})
}

// A Switch pointed at another state answers from that state, even when both states have seen
// as many Updates: the regime and port index are kept per state, not per generation alone.
func TestPerPortAnswersFollowAnotherState(t *testing.T) {
	a, b := smallLeaf(), smallLeaf()
	a.Update(func(sw *switchstate.Switch) { sw.Port("swp2").MTU = 1500 })
	b.Update(func(sw *switchstate.Switch) { sw.Port("swp2").MTU = 9000 })
	var genA, genB uint64
	a.Read(func(sw *switchstate.Switch) { genA = sw.Generation() })
	b.Read(func(sw *switchstate.Switch) { genB = sw.Generation() })
	if genA != genB {
		t.Fatalf("generations %d and %d: the test needs them equal", genA, genB)
	}
	dev := New(a)
	const link = "nv show interface swp2 link"
	if out, _, _ := dev.Exec(context.Background(), link); !strings.Contains(out, "mtu             1500         1500     1500\n") {
		t.Fatalf("state a:\n%s", out)
	}
	dev.State = b
	if out, _, _ := dev.Exec(context.Background(), link); !strings.Contains(out, "mtu             9000         9000     9000\n") {
		t.Errorf("after pointing the Switch at state b, swp2's link is still a's:\n%s", out)
	}
}
