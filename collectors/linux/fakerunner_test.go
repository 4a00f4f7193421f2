package linux

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// fixtureRoot is fixtures/linux relative to this package.
var fixtureRoot = filepath.Join("..", "..", "fixtures", "linux")

// fakeRunner answers commands from a fixture scenario, enforcing the allowlist like the real
// runner does, and records every command it was asked to send.
type fakeRunner struct {
	fsys      fs.FS
	overrides map[string]collectors.Output // by command without sudo prefix
	allow     *collectors.Allowlist
	// tolerate answers commands without a fixture with exit 1 instead of failing the test.
	tolerate bool

	mu      sync.Mutex
	sent    []string
	missing []string
}

func newFakeRunner(scenario string) *fakeRunner {
	return &fakeRunner{fsys: os.DirFS(filepath.Join(fixtureRoot, scenario)), allow: Descriptor().Allowlist(),
		overrides: map[string]collectors.Output{}}
}

// sentCommands returns what was sent so far.
func (f *fakeRunner) sentCommands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.sent...)
}

func (f *fakeRunner) Run(_ context.Context, cmd string) (collectors.Output, error) {
	f.mu.Lock()
	f.sent = append(f.sent, cmd)
	f.mu.Unlock()
	if !f.allow.Allows(cmd) {
		return collectors.Output{}, fmt.Errorf("%q: %w", cmd, collectors.ErrNotAllowed)
	}
	if o, ok := f.overrides[strings.TrimPrefix(cmd, collectors.SudoPrefix)]; ok {
		return o, nil
	}
	out, err := ReadFixture(f.fsys, cmd)
	if errors.Is(err, fs.ErrNotExist) && f.tolerate {
		return collectors.Output{ExitCode: 1, Stderr: "Operation not supported\n"}, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		f.mu.Lock()
		f.missing = append(f.missing, cmd)
		f.mu.Unlock()
	}
	return out, err
}

// collectScenario runs Collect against a fixture scenario and fails on any command the
// scenario has no fixture for (the fixtures must cover everything Collect sends).
func collectScenario(t *testing.T, f *fakeRunner, spec inventory.DeviceSpec) (*topology.Device, error) {
	t.Helper()
	dev := &topology.Device{Name: spec.Name, Platform: "linux", Role: topology.RoleHost}
	err := Platform{}.Collect(context.Background(), f, spec, dev)
	if len(f.missing) > 0 {
		t.Errorf("Collect sent commands without a fixture: %q", f.missing)
	}
	return dev, err
}

// readFixture reads one fixture file of a scenario.
func readFixture(t *testing.T, scenario, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, scenario, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func osDirFS(dir string) fs.FS { return os.DirFS(dir) }
