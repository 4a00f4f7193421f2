// Package fixturerunner lets a collector's tests run its real Collect against recorded switch
// output: a fake runner serves a scenario's fixture files by command string. It is imported by
// tests only.
package fixturerunner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
)

// Fixtures says where a platform's fixture files are and which commands the platform may
// send. Runner calls its methods on the zero value.
type Fixtures interface {
	// FixtureDir is the platform's fixture directory (fixtures/<platform>), relative to the
	// test's package; each scenario is a directory in it.
	FixtureDir() string
	// FixtureFile is the file of a scenario that holds cmd's output.
	FixtureFile(cmd string) string
	// Allowlist is the platform's allowlist.
	Allowlist() *collectors.Allowlist
}

// Runner serves the files of fixture scenario Scenario by command string and refuses what the
// allowlist refuses, as the real runner does. Override and Fail replace single commands;
// Sent records every command received, in order, refused ones included. Run is safe for
// concurrent use (collectors read ports in parallel); read Sent once Collect has returned.
type Runner[F Fixtures] struct {
	Scenario string
	Override map[string]collectors.Output
	Fail     map[string]error
	Sent     []string
	mu       sync.Mutex
}

// Run answers cmd: ErrNotAllowed when the allowlist refuses it, then Fail's error, then
// Override's output, then the scenario's file. A missing file is an error.
func (r *Runner[F]) Run(_ context.Context, cmd string) (collectors.Output, error) {
	var f F
	r.mu.Lock()
	r.Sent = append(r.Sent, cmd)
	r.mu.Unlock()
	if !f.Allowlist().Allows(cmd) {
		return collectors.Output{}, collectors.ErrNotAllowed
	}
	if err, ok := r.Fail[cmd]; ok {
		return collectors.Output{}, err
	}
	if o, ok := r.Override[cmd]; ok {
		return o, nil
	}
	out, err := Read(f, r.Scenario, cmd)
	if err != nil {
		return collectors.Output{}, errors.New("no fixture: " + err.Error())
	}
	return collectors.Output{Stdout: out}, nil
}

// Read returns the output scenario holds for cmd.
func Read(f Fixtures, scenario, cmd string) (string, error) {
	b, err := os.ReadFile(filepath.Join(f.FixtureDir(), scenario, f.FixtureFile(cmd)))
	return string(b), err
}

// MustRead is Read that stops the test when the file cannot be read.
func MustRead(t testing.TB, f Fixtures, scenario, cmd string) string {
	t.Helper()
	out, err := Read(f, scenario, cmd)
	if err != nil {
		t.Fatalf("fixture for %q: %v", cmd, err)
	}
	return out
}

// Verbatim reads a file of the platform's verbatim directory (parser inputs copied from the
// reference), stopping the test when it cannot be read.
func Verbatim(t testing.TB, f Fixtures, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.FixtureDir(), "verbatim", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Seeds returns every readable file of the given directories of the platform's fixture tree
// (scenarios, "verbatim"), directory by directory in file-name order: fuzz seeds from real
// output.
func Seeds(fx Fixtures, dirs ...string) []string {
	var out []string
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(fx.FixtureDir(), dir, "*"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				out = append(out, string(b))
			}
		}
	}
	return out
}

// SeedDirs adds Seeds to a fuzz target's corpus.
func SeedDirs(f *testing.F, fx Fixtures, dirs ...string) {
	for _, s := range Seeds(fx, dirs...) {
		f.Add(s)
	}
}

// Scenarios are the platform's scenario directories (every directory but "verbatim"), in
// name order.
func Scenarios(fx Fixtures) []string {
	entries, _ := os.ReadDir(fx.FixtureDir())
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "verbatim" {
			out = append(out, e.Name())
		}
	}
	return out
}
