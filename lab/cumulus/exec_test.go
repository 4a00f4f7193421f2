package cumulus

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

func TestExecRefusesWhatItDoesNotKnow(t *testing.T) {
	labtest.ExpectRefusals(t, New(leaf2()), []labtest.Refusal{
		{Cmd: "nv set interface swp1 link mtu 1500", Stderr: "bash: line 1: nv: command not found\n", Exit: 127},
		{Cmd: "nv config apply -y", Stderr: "bash: line 1: nv: command not found\n", Exit: 127},
		{Cmd: "sudo -n nv unset qos roce", Stderr: "sudo: nv: command not found\n", Exit: 1},
		{Cmd: "nv show interface swp1 qos roce", Stderr: "bash: line 1: nv: command not found\n", Exit: 127},
		{Cmd: "nv show qos roce; reboot", Stderr: "bash: line 1: nv: command not found\n", Exit: 127},
		{Cmd: "ip link set swp1 mtu 1500", Stderr: "bash: line 1: ip: command not found\n", Exit: 127},
		{Cmd: "nv show interface swp9 link", Stderr: itemMissing, Exit: 1},
		{Cmd: "", Stderr: "", Exit: 0},
	})
}

// TestExecAnswersEveryCollectorCommand: every command the collector may send answers in both
// regimes (the RoCE status only in RoCE mode), also behind sudo -n and with extra blanks.
func TestExecAnswersEveryCollectorCommand(t *testing.T) {
	for _, sc := range scenarios() {
		dev := New(sc.sw)
		for _, tmpl := range cumuluscol.Templates() {
			cmd, err := collectors.Expand(tmpl, map[string]string{"if": "swp52"})
			if err != nil {
				t.Fatal(err)
			}
			out, stderr, exit := dev.Exec(context.Background(), cmd)
			if tmpl == cumuluscol.TmplRoCEStatus && !sc.roce {
				if exit != 1 || stderr != itemMissing {
					t.Errorf("%s: %q with RoCE disabled: exit %d stderr %q", sc.name, cmd, exit, stderr)
				}
				continue
			}
			if exit != 0 || stderr != "" || !strings.HasSuffix(out, "\n") {
				t.Errorf("%s: %q: exit %d stderr %q", sc.name, cmd, exit, stderr)
			}
			sudo, _, _ := dev.Exec(context.Background(), "sudo -n "+strings.ReplaceAll(cmd, " ", "  "))
			if sudo != out {
				t.Errorf("%s: %q behind sudo -n answers differently", sc.name, cmd)
			}
		}
	}
}

// TestAnswersFollowTheState: a change to the state shows in the next answer, and a change RoCE
// mode cannot express turns RoCE off switch-wide.
func TestAnswersFollowTheState(t *testing.T) {
	sw := leaf2()
	dev := New(sw)
	before, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp2").MTU = 9000 })
	after, _, _ := dev.Exec(context.Background(), "nv show interface swp2 link")
	if strings.Contains(before, "9000") || !strings.Contains(after, "mtu             9000         9000     9000\n") {
		t.Errorf("link did not follow the MTU change:\n%s", after)
	}
	sw.Update(func(sw *switchstate.Switch) { sw.Port("swp3").TrustDSCP = false })
	roce, _, _ := dev.Exec(context.Background(), cumuluscol.CmdRoCE)
	mapping, _, _ := dev.Exec(context.Background(), "nv show interface swp3 qos mapping")
	if !strings.HasPrefix(roce, "        operational  applied\n------  -----------  -------\nenable               off\n") ||
		!strings.Contains(mapping, "trust            l2\n") {
		t.Errorf("RoCE did not turn off for a port trusting PCP:\n%s\n%s", roce, mapping)
	}
}

// TestCollectOverSSH collects leaf2 with its SW-MTU fault through lab/sshd and roceaudit's own
// SSH runner, with sudo, and checks it sees what the exec path sees.
func TestCollectOverSSH(t *testing.T) {
	sw := leaf2()
	sw.Port("swp2").MTU = 9000
	dev := New(sw)

	cfg := labtest.StartSSH(t, dev, "cumulus").ClientConfig(t, "cumulus")
	cfg.Sudo, cfg.Allowlist = true, cumuluscol.Platform{}.Allowlist()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := sshclient.Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	viaSSH := &topology.Device{Name: "leaf2"}
	if err := (cumuluscol.Platform{}).Collect(ctx, c, inventory.DeviceSpec{Name: "leaf2"}, viaSSH); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(collect(t, sw), viaSSH.Switch); d != "" {
		t.Errorf("collection over SSH differs from exec (-exec +ssh):\n%s", d)
	}
	if got := viaSSH.Switch.Port("swp2").MTU.Value.Configured; got != 9000 {
		t.Errorf("swp2 MTU over SSH %d, want 9000", got)
	}
}
