package nxoscheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/labcheck"
)

// TestDumpGeneratedLeaf writes the generated leaf's answers, one file per command, into
// $ROCEAUDIT_DUMP_LEAF (skipped without it): the per-parser benchmarks of collectors/nxos
// read them (go test -bench Leaf ./collectors/nxos with the same variable).
func TestDumpGeneratedLeaf(t *testing.T) {
	dir := os.Getenv("ROCEAUDIT_DUMP_LEAF")
	if dir == "" {
		t.Skip("ROCEAUDIT_DUMP_LEAF is not set")
	}
	leaf, _ := generated.Generated(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := labcheck.ExecRunner{Dev: leaf.Device, Allow: generated.Collector.Allowlist()}
	for _, cmd := range generated.Collector.Commands() {
		out, err := r.Run(context.Background(), cmd)
		if err != nil || out.ExitCode != 0 {
			continue
		}
		name := strings.NewReplacer(" ", "_", "|", "").Replace(cmd)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(out.Stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
