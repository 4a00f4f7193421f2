package cumuluscheck

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
	"github.com/roceaudit/roceaudit/lab/cumulus"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// TestExecAnswersEveryCollectorCommand: every command the collector may send answers in both
// regimes (the RoCE status only in RoCE mode), also behind sudo -n and with extra blanks.
func TestExecAnswersEveryCollectorCommand(t *testing.T) {
	for _, sc := range scenarios() {
		dev := cumulus.New(sc.sw)
		for _, tmpl := range cumuluscol.Templates() {
			cmd, err := collectors.Expand(tmpl, map[string]string{"if": "swp52"})
			if err != nil {
				t.Fatal(err)
			}
			out, stderr, exit := dev.Exec(context.Background(), cmd)
			if tmpl == cumuluscol.TmplRoCEStatus && !sc.roce {
				if exit != 1 || stderr != cumulus.ItemMissing {
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

// TestCollectOverSSH collects leaf2 with its SW-MTU fault through lab/sshd and roceaudit's own
// SSH runner, with sudo, and checks it sees what the exec path sees.
func TestCollectOverSSH(t *testing.T) {
	sw := leaf2()
	sw.Port("swp2").MTU = 9000
	dev := cumulus.New(sw)

	cfg := labcheck.ClientConfig(t, labtest.StartSSH(t, dev, "cumulus"), "cumulus")
	cfg.Sudo, cfg.Allowlist = true, cumuluscol.Descriptor().Allowlist()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := sshclient.Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	viaSSH := &topology.Device{Name: "leaf2"}
	if err := cumuluscol.Descriptor().Collect(ctx, c, inventory.DeviceSpec{Name: "leaf2"}, viaSSH); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(collect(t, sw), viaSSH.Switch); d != "" {
		t.Errorf("collection over SSH differs from exec (-exec +ssh):\n%s", d)
	}
	if got := viaSSH.Switch.Port("swp2").MTU.Value.Configured; got != 9000 {
		t.Errorf("swp2 MTU over SSH %d, want 9000", got)
	}
}
