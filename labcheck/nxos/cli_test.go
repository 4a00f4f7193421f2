package nxoscheck

import (
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/nxos"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/google/go-cmp/cmp"

	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/labcheck"
)

// TestInteractiveCollection collects the broken leaf4 through roceaudit's own interactive CLI
// transport (scrapligo on a verified SSH connection) and checks that it sees exactly what the
// exec path sees, and that the session says it is simulated.
func TestInteractiveCollection(t *testing.T) {
	sw := nxos.Leaf4()
	sw.Port("Ethernet1/2").Watchdog[3] = false
	sw.Port("Ethernet1/3").PFCAuto, sw.Port("Ethernet1/3").DCBX = true, true
	dev := nxos.New(sw)
	dev.Now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	viaCLI := labcheck.CollectOverCLI(t, nxoscol.Descriptor(), labtest.StartSSH(t, dev, "admin"), "leaf4")
	viaExec := labcheck.Collect(t, nxoscol.Descriptor(), dev, sw)
	if d := cmp.Diff(viaExec, viaCLI); d != "" {
		t.Errorf("interactive collection differs from exec (-exec +cli):\n%s", d)
	}
	if got := viaCLI.Port("Ethernet1/3").PFC.Value.Mode; got != "auto" {
		t.Errorf("Ethernet1/3 PFC mode over the CLI = %q, want auto", got)
	}
}
