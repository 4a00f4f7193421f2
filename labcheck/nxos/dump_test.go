package nxoscheck

import (
	"testing"

	"github.com/roceaudit/roceaudit/internal/leafreplay"
	"github.com/roceaudit/roceaudit/labcheck"
)

// TestDumpGeneratedLeaf writes the generated leaf's answers, one file per command, into
// $ROCEAUDIT_DUMP_LEAF (skipped without it): the per-parser benchmarks of collectors/nxos
// read them (go test -bench Leaf ./collectors/nxos with the same variable).
func TestDumpGeneratedLeaf(t *testing.T) {
	leaf, _ := generated.Generated(t)
	leafreplay.Dump(t, labcheck.ExecRunner{Dev: leaf.Device, Allow: generated.Collector.Allowlist()}, generated.Collector.Commands())
}
