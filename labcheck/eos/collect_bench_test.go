package eoscheck

import (
	"testing"

	eoscol "github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/labcheck/leafbench"
)

// generated are the EOS switches of the generated fabric the benchmarks collect (package
// leafbench says how to profile them): its 248-port leaf leaf3 and its 32-port spine spine3.
var generated = leafbench.Platform{Collector: eoscol.Descriptor(), Leaf: "leaf3", Spine: "spine3"}

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
