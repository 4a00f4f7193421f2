package fixturerunner

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/internal/golden"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

var updateScenarios = flag.Bool("update-scenarios", false, "rewrite testdata/scenarios.json.gz from this collector")

// ScenarioFacts is one fixture scenario's collection: the device and Collect's error.
type ScenarioFacts struct {
	Scenario string
	Device   *topology.Device
	Err      string
}

// CollectScenarios runs p's Collect on every scenario of F, in name order, each answered by a
// Runner[F] (wrapped by wrap, when not nil); suffix is appended to the scenario's name in the
// result (the device keeps the plain name).
func CollectScenarios[F Fixtures](p collectors.Platform, suffix string, wrap func(collectors.Runner) collectors.Runner) []ScenarioFacts {
	var f F
	var got []ScenarioFacts
	for _, s := range Scenarios(f) {
		var r collectors.Runner = &Runner[F]{Scenario: s}
		if wrap != nil {
			r = wrap(r)
		}
		dev := &topology.Device{Name: s, Platform: p.Name(), Role: topology.RoleSwitch}
		err := p.Collect(context.Background(), r, inventory.DeviceSpec{Name: s}, dev)
		got = append(got, ScenarioFacts{s + suffix, dev, errText(err)})
	}
	return got
}

// CheckScenarios compares got with the collections recorded in testdata/scenarios.json.gz:
// the parsers' optimisations must leave every fact, evidence text and error as it was
// (-update-scenarios records them again).
func CheckScenarios(t testing.TB, got []ScenarioFacts) {
	t.Helper()
	golden.Check(t, golden.File{Path: filepath.Join("testdata", "scenarios.json.gz"), Update: *updateScenarios}, got)
}

// ScenarioFactsUnchanged is CheckScenarios of every scenario of F collected by p as is.
func ScenarioFactsUnchanged[F Fixtures](t testing.TB, p collectors.Platform) {
	t.Helper()
	CheckScenarios(t, CollectScenarios[F](p, "", nil))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
