package nxos

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	labtest.ExpectRefusals(t, New(Leaf4()), []labtest.Refusal{
		{Cmd: "show foo", Stderr: "     ^\n% Invalid command at '^' marker.\n", Exit: 1},
		{Cmd: "configure terminal", Stderr: "^\n% Invalid command at '^' marker.\n", Exit: 1},
		{Cmd: "show running-config ipqos all", Stderr: "                          ^\n% Invalid command at '^' marker.\n", Exit: 1},
		{Cmd: "show interface | json-pretty", Stderr: "                 ^\n% Invalid command at '^' marker.\n", Exit: 1},
		{Cmd: "show", Stderr: "     ^\n% Incomplete command at '^' marker.\n", Exit: 1},
		{Cmd: "t", Stderr: "  ^\n% Incomplete command at '^' marker.\n", Exit: 1},
		{Cmd: "terminal width 511", Stderr: "", Exit: 0},
		{Cmd: "", Stderr: "", Exit: 0},
	})
}

func TestExecAbbreviations(t *testing.T) {
	labtest.ExpectAbbreviations(t, New(Leaf4()), map[string]string{
		"show version | json":       "sh ver|js",
		"show interface | json":     "SH  int  | json",
		"show running-config ipqos": "sh run ipqos",
	}, func(full, out string) string {
		if full == "show running-config ipqos" { // the !Time: line moves on
			return dropTime(out)
		}
		return out
	})
}

func dropTime(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "!Time:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestLLDPRowShapes: ROW_nbor_detail is an object for one neighbour, an array for several,
// and NX-OS prints nothing when there is none.
func TestLLDPRowShapes(t *testing.T) {
	one := Leaf4()
	for _, p := range one.Ports[1:] {
		p.Neighbor = nil
	}
	none := Leaf4()
	for _, p := range none.Ports {
		p.Neighbor = nil
	}
	for _, c := range []struct {
		sw   *switchstate.Switch
		want string
	}{
		{Leaf4(), `"ROW_nbor_detail":[{`},
		{one, `"ROW_nbor_detail":{"chassis_type"`},
		{none, ""},
	} {
		out, _, exit := New(c.sw).Exec(context.Background(), "show lldp neighbors detail | json")
		if exit != 0 || (c.want == "" && out != "") || !strings.Contains(out, c.want) {
			t.Errorf("exit %d, output %s; want it to contain %q", exit, out, c.want)
		}
	}
}

func TestAnswersFollowTheState(t *testing.T) {
	sw := Leaf4()
	dev := New(sw)
	sw.Update(func(sw *switchstate.Switch) { sw.Port("Ethernet1/4").PauseRX = true })
	out, _, _ := dev.Exec(context.Background(), "show interface | json")
	if !strings.Contains(out, `"interface":"Ethernet1/4","state":"up"`) || !strings.Contains(out, `"eth_in_flowctrl":"on"`) {
		t.Errorf("show interface did not follow the pause change:\n%s", out)
	}
}

// TestConcurrentUpdates: answers read the state under its lock while the lab changes it
// (run with -race).
func TestConcurrentUpdates(t *testing.T) {
	sw := Leaf4()
	labtest.ExecUnderUpdates(t, sw, New(sw), Commands())
}
