package nxoscheck

import (
	"testing"

	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/labcheck/leafbench"
)

// generated are the NX-OS switches of the generated fabric the benchmarks collect (package
// leafbench says how to profile them): its 248-port leaf leaf4 and its 32-port spine spine4.
var generated = leafbench.Platform{Collector: nxoscol.Descriptor(), Leaf: "leaf4", Spine: "spine4"}

// TestGeneratedFactsUnchanged guards the facts the generated leaf and spine collect to
// (testdata/generated.json.gz; -update-generated records them again).
func TestGeneratedFactsUnchanged(t *testing.T) { generated.FactsUnchanged(t) }

// TestGeneratedLeafOverCLI: the generated leaf collected through the CLI has the exec facts.
func TestGeneratedLeafOverCLI(t *testing.T) { generated.LeafOverCLI(t) }

// BenchmarkCollectGeneratedLeaf is one collection of the generated leaf by exec, no SSH.
func BenchmarkCollectGeneratedLeaf(b *testing.B) { generated.CollectLeaf(b) }

// BenchmarkCollectGeneratedLeafCLI is that collection over SSH, through the CLI transport.
func BenchmarkCollectGeneratedLeafCLI(b *testing.B) { generated.CollectLeafCLI(b) }

// BenchmarkParseGeneratedLeaf is the parsing of the generated leaf's recorded answers alone.
func BenchmarkParseGeneratedLeaf(b *testing.B) { generated.ParseLeaf(b) }
