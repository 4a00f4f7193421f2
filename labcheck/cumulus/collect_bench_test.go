package cumuluscheck

import (
	"testing"

	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/labcheck/leafbench"
)

// generated are the Cumulus switches of the generated fabric the benchmarks collect (package
// leafbench says how to profile them): its 248-port leaf leaf2 and its 32-port spine spine2.
var generated = leafbench.Platform{Collector: cumuluscol.Descriptor(), Leaf: "leaf2", Spine: "spine2"}

// TestGeneratedFactsUnchanged guards the facts the generated leaf and spine collect to
// (testdata/generated.json.gz; -update-generated records them again).
func TestGeneratedFactsUnchanged(t *testing.T) { generated.FactsUnchanged(t) }

// BenchmarkCollectGeneratedLeaf is one collection of the generated leaf by exec, no SSH.
func BenchmarkCollectGeneratedLeaf(b *testing.B) { generated.CollectLeaf(b) }

// BenchmarkParseGeneratedLeaf is the parsing of the generated leaf's recorded answers alone.
func BenchmarkParseGeneratedLeaf(b *testing.B) { generated.ParseLeaf(b) }
