package cumulus

import (
	"context"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// TestScenarioFactsUnchanged collects every fixture scenario and compares the devices with
// those recorded in testdata: the parsers' optimisations must leave every fact, evidence text
// and error as it was (-update-scenarios records them again).
func TestScenarioFactsUnchanged(t *testing.T) {
	got := fixturerunner.CollectScenarios[fixtures](Descriptor(), "", nil)
	// and each from the text forms alone, as a Cumulus whose NVUE refuses -o json is read
	textOnly := func(r collectors.Runner) collectors.Runner { return textOnlyRunner{r} }
	got = append(got, fixturerunner.CollectScenarios[fixtures](Descriptor(), " (text)", textOnly)...)
	fixturerunner.CheckScenarios(t, got)
}

// textOnlyRunner refuses every "-o json" command with NVUE's option error.
type textOnlyRunner struct{ r collectors.Runner }

func (t textOnlyRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	if strings.HasSuffix(cmd, " -o json") {
		return collectors.Output{Stderr: "Error: Invalid option: -o\n", ExitCode: 2}, nil
	}
	return t.r.Run(ctx, cmd)
}
