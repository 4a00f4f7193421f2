package eos

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// TestScenarioFactsUnchanged collects every fixture scenario and compares the devices with
// those recorded in testdata: the parsers' optimisations must leave every fact, evidence text
// and error as it was (-update-scenarios records them again).
func TestScenarioFactsUnchanged(t *testing.T) {
	fixturerunner.ScenarioFactsUnchanged[fixtures](t, Descriptor())
}
