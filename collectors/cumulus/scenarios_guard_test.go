package cumulus

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"

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
		dev := &topology.Device{Name: s, Platform: "cumulus", Role: topology.RoleSwitch}
		err := Descriptor().Collect(context.Background(), &fakeRunner{Scenario: s}, inventory.DeviceSpec{Name: s}, dev)
		got = append(got, scenarioFacts{s, dev, errText(err)})
	}
	// and each from the text forms alone, as a Cumulus whose NVUE refuses -o json is read
	for _, s := range fixturerunner.Scenarios(fixtures{}) {
		dev := &topology.Device{Name: s, Platform: "cumulus", Role: topology.RoleSwitch}
		err := Descriptor().Collect(context.Background(), textOnlyRunner{&fakeRunner{Scenario: s}}, inventory.DeviceSpec{Name: s}, dev)
		got = append(got, scenarioFacts{s + " (text)", dev, errText(err)})
	}
	fixturerunner.Golden(t, filepath.Join("testdata", "scenarios.json.gz"), got, *updateScenarios)
}

// textOnlyRunner refuses every "-o json" command with NVUE's option error.
type textOnlyRunner struct{ r collectors.Runner }

func (t textOnlyRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	if strings.HasSuffix(cmd, " -o json") {
		return collectors.Output{Stderr: "Error: Invalid option: -o\n", ExitCode: 2}, nil
	}
	return t.r.Run(ctx, cmd)
}
