package eoscheck

import (
	"testing"

	"github.com/roceaudit/roceaudit/lab/eos"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/google/go-cmp/cmp"

	eoscol "github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/labcheck"
)

// TestInteractiveCollection collects the broken leaf3 through roceaudit's own interactive CLI
// transport (scrapligo on a verified SSH connection) and checks that it sees exactly what the
// exec path sees, and that the session says it is simulated.
func TestInteractiveCollection(t *testing.T) {
	sw := eos.Leaf3()
	sw.Port("Ethernet2").TrustDSCP = false
	sw.Port("Ethernet3").PauseRX = true
	dev := eos.New(sw)
	viaCLI := labcheck.CollectOverCLI(t, eoscol.Descriptor(), labtest.StartSSH(t, dev, "admin"), "leaf3")
	viaExec := labcheck.Collect(t, eoscol.Descriptor(), dev, sw)
	if d := cmp.Diff(viaExec, viaCLI); d != "" {
		t.Errorf("interactive collection differs from exec (-exec +cli):\n%s", d)
	}
	if got := viaCLI.Port("Ethernet2").Trust.Value; got != "pcp" {
		t.Errorf("Ethernet2 trust over the CLI = %q, want pcp", got)
	}
}
