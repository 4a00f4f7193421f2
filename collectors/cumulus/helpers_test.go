package cumulus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

const fixtureRoot = "../../fixtures/cumulus"

// verbatim reads a file of fixtures/cumulus/verbatim (parser inputs copied from the reference).
func verbatim(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, "verbatim", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// scenario reads the output a scenario holds for cmd.
func scenario(t *testing.T, name, cmd string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, name, FixtureFile(cmd)))
	if err != nil {
		t.Fatalf("fixture for %q: %v", cmd, err)
	}
	return string(b)
}

// fakeRunner serves a scenario's files by command string and refuses what the allowlist
// refuses, as the real runner does. override and fail replace single commands.
type fakeRunner struct {
	scenario string
	override map[string]collectors.Output
	fail     map[string]error
	sent     []string
}

func (f *fakeRunner) Run(_ context.Context, cmd string) (collectors.Output, error) {
	f.sent = append(f.sent, cmd)
	if !(Platform{}).Allowlist().Allows(cmd) {
		return collectors.Output{}, collectors.ErrNotAllowed
	}
	if err, ok := f.fail[cmd]; ok {
		return collectors.Output{}, err
	}
	if o, ok := f.override[cmd]; ok {
		return o, nil
	}
	b, err := os.ReadFile(filepath.Join(fixtureRoot, f.scenario, FixtureFile(cmd)))
	if err != nil {
		return collectors.Output{}, errors.New("no fixture: " + err.Error())
	}
	return collectors.Output{Stdout: string(b)}, nil
}
