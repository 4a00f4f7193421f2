package soniccheck

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/sonic"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// TestExecAnswersEveryCollectorCommand: every command of the collector answers, also behind
// sudo -n and with extra blanks, and the output ends in a newline.
func TestExecAnswersEveryCollectorCommand(t *testing.T) {
	dev := sonic.New(leaf1())
	for _, cmd := range soniccol.Descriptor().Commands() {
		out, stderr, exit := dev.Exec(context.Background(), cmd)
		if exit != 0 || stderr != "" || !strings.HasSuffix(out, "\n") {
			t.Errorf("%q: exit %d stderr %q", cmd, exit, stderr)
		}
		sudo, _, _ := dev.Exec(context.Background(), "sudo -n "+strings.ReplaceAll(cmd, " ", "  "))
		if sudo != out {
			t.Errorf("%q behind sudo -n answers differently", cmd)
		}
	}
}

// TestCollectOverSSH collects the broken leaf1 through lab/sshd and roceaudit's own SSH
// runner, with sudo, and checks it sees what the exec path sees and that the session says it
// is simulated.
func TestCollectOverSSH(t *testing.T) {
	sw := leaf1()
	sw.Port("Ethernet4").DSCPToTC[26] = 1
	dev := sonic.New(sw)

	cfg := labcheck.ClientConfig(t, labtest.StartSSH(t, dev, "admin"), "admin")
	cfg.Sudo, cfg.Allowlist = true, soniccol.Descriptor().Allowlist()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := sshclient.Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !strings.Contains(c.ServerVersion(), sshclient.LabBanner) {
		t.Errorf("server version %q does not say the device is simulated", c.ServerVersion())
	}

	viaSSH := &topology.Device{Name: "leaf1"}
	if err := soniccol.Descriptor().Collect(ctx, c, inventory.DeviceSpec{Name: "leaf1"}, viaSSH); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(collect(t, sw), viaSSH.Switch); d != "" {
		t.Errorf("collection over SSH differs from exec (-exec +ssh):\n%s", d)
	}
	if got := viaSSH.Switch.Port("Ethernet4").DSCPToTC.Value[26]; got != 1 {
		t.Errorf("Ethernet4 DSCP 26 over SSH -> TC %d, want 1", got)
	}
	if _, err := c.Run(ctx, "config save -y"); err == nil {
		t.Error("the runner sent a command off the allowlist")
	}
}
