package fixturerunner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
)

// demo is a made-up platform: fixtures under testdata/demo, files named by replacing spaces
// with '_', and an allowlist of one plain command and one template.
type demo struct{}

func (demo) FixtureDir() string            { return "testdata/demo" }
func (demo) FixtureFile(cmd string) string { return strings.ReplaceAll(cmd, " ", "_") + ".txt" }
func (demo) Allowlist() *collectors.Allowlist {
	return collectors.NewAllowlist("show version", "show port {if}", "show missing")
}

var _ collectors.Runner = &Runner[demo]{}

func TestRunServesTheScenarioFile(t *testing.T) {
	r := &Runner[demo]{Scenario: "healthy"}
	out, err := r.Run(context.Background(), "show port p1")
	if err != nil {
		t.Fatal(err)
	}
	if want := (collectors.Output{Stdout: "port  mtu\n----  ----\np1    9216\n"}); out != want {
		t.Errorf("got %+v, want %+v", out, want)
	}
}

// A refused command is recorded but never answered, even when Fail or Override name it.
func TestRunRefusesWhatTheAllowlistRefuses(t *testing.T) {
	r := &Runner[demo]{Scenario: "healthy",
		Fail:     map[string]error{"reboot": errors.New("should not be reached")},
		Override: map[string]collectors.Output{"reboot": {Stdout: "should not be served"}}}
	out, err := r.Run(context.Background(), "reboot")
	if !errors.Is(err, collectors.ErrNotAllowed) || out != (collectors.Output{}) {
		t.Errorf("got %+v, %v; want ErrNotAllowed and no output", out, err)
	}
}

func TestRunFailThenOverrideThenFile(t *testing.T) {
	closed := errors.New("session closed")
	r := &Runner[demo]{Scenario: "healthy",
		Fail:     map[string]error{"show version": closed},
		Override: map[string]collectors.Output{"show version": {Stdout: "overridden"}, "show port p1": {Stdout: "x", ExitCode: 1}}}
	if _, err := r.Run(context.Background(), "show version"); !errors.Is(err, closed) {
		t.Errorf("Fail must win over Override: %v", err)
	}
	out, err := r.Run(context.Background(), "show port p1")
	if err != nil || out != (collectors.Output{Stdout: "x", ExitCode: 1}) {
		t.Errorf("Override: got %+v, %v", out, err)
	}
}

func TestRunMissingFixture(t *testing.T) {
	r := &Runner[demo]{Scenario: "healthy"}
	_, err := r.Run(context.Background(), "show missing")
	if err == nil || !strings.HasPrefix(err.Error(), "no fixture: ") {
		t.Errorf("got %v, want a \"no fixture: \" error", err)
	}
}

func TestRunRecordsEveryCommand(t *testing.T) {
	r := &Runner[demo]{Scenario: "healthy"}
	for _, c := range []string{"show version", "reboot", "show missing", "show port p1"} {
		_, _ = r.Run(context.Background(), c)
	}
	if d := cmp.Diff([]string{"show version", "reboot", "show missing", "show port p1"}, r.Sent); d != "" {
		t.Errorf("Sent (-want +got):\n%s", d)
	}
}

func TestRead(t *testing.T) {
	if got, err := Read(demo{}, "healthy", "show version"); err != nil || got != "Demo OS 1.0\n" {
		t.Errorf("Read = %q, %v", got, err)
	}
	if got, err := Read(demo{}, "broken", "show version"); err == nil || got != "" {
		t.Errorf("Read of a missing scenario = %q, %v; want an error", got, err)
	}
	if got := MustRead(t, demo{}, "healthy", "show version"); got != "Demo OS 1.0\n" {
		t.Errorf("MustRead = %q", got)
	}
	if got := Verbatim(t, demo{}, "show_version.txt"); got != "verbatim copy\n" {
		t.Errorf("Verbatim = %q", got)
	}
}

// Seeds reads every file of the named directories, in order, and nothing else: not the
// directories themselves, not the directories left out.
func TestSeeds(t *testing.T) {
	got := Seeds(demo{}, "verbatim", "healthy", "absent")
	want := []string{"verbatim copy\n", "port  mtu\n----  ----\np1    9216\n", "Demo OS 1.0\n"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := Seeds(demo{}, "."); got != nil {
		t.Errorf("the fixture root holds only directories: %q", got)
	}
}
