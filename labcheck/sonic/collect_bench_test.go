package soniccheck

import (
	"testing"

	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/labcheck/leafbench"
)

// generated are the SONiC switches of the generated fabric the benchmarks collect (package
// leafbench says how to profile them): its 248-port leaf leaf1 and its 32-port spine spine1.
var generated = leafbench.Platform{Collector: soniccol.Descriptor(), Leaf: "leaf1", Spine: "spine1"}

// TestGeneratedFactsUnchanged guards the facts the generated leaf and spine collect to
// (testdata/generated.json.gz; -update-generated records them again).
func TestGeneratedFactsUnchanged(t *testing.T) { generated.FactsUnchanged(t) }

// BenchmarkCollectGeneratedLeaf is one collection of the generated leaf by exec, no SSH.
func BenchmarkCollectGeneratedLeaf(b *testing.B) { generated.CollectLeaf(b) }

// BenchmarkParseGeneratedLeaf is the parsing of the generated leaf's recorded answers alone.
func BenchmarkParseGeneratedLeaf(b *testing.B) { generated.ParseLeaf(b) }
