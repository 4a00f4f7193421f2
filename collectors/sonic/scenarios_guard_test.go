package sonic

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

var updateScenarios = flag.Bool("update-scenarios", false, "rewrite testdata/scenarios.json.gz from this collector")

// scenarioFacts is one fixture scenario's collection: the device and Collect's error.
type scenarioFacts struct {
	Scenario string
	Device   *topology.Device
	Err      string
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestScenarioFactsUnchanged collects every fixture scenario and compares the devices with
// those recorded in testdata: the parsers' optimisations must leave every fact, evidence text
// and error as it was (-update-scenarios records them again).
func TestScenarioFactsUnchanged(t *testing.T) {
	var got []scenarioFacts
	for _, s := range fixturerunner.Scenarios(fixtures{}) {
		dev := &topology.Device{Name: s, Platform: "sonic", Role: topology.RoleSwitch}
		err := Descriptor().Collect(context.Background(), &fakeRunner{Scenario: s}, inventory.DeviceSpec{Name: s}, dev)
		got = append(got, scenarioFacts{s, dev, errText(err)})
	}
	fixturerunner.Golden(t, filepath.Join("testdata", "scenarios.json.gz"), got, *updateScenarios)
}
