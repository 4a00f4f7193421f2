package eos

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturename"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

const fixtureRoot = "../../fixtures/eos"

// fixtures are fixtures/eos, named and allowed as the EOS collector names and allows commands.
type fixtures struct{ Platform }

func (fixtures) FixtureDir() string               { return fixtureRoot }
func (fixtures) Allowlist() *collectors.Allowlist { return Descriptor().Allowlist() }
func (fixtures) FixtureFile(cmd string) string    { return FixtureFile(cmd) }

// fakeRunner serves fixture files by command string and refuses what the allowlist refuses,
// as the real runner does.
type fakeRunner = fixturerunner.Runner[fixtures]

func fixture(t *testing.T, scenario, cmd string) string {
	t.Helper()
	return fixturerunner.MustRead(t, fixtures{}, scenario, cmd)
}

func readSeed(scenario, cmd string) (string, error) {
	return fixturerunner.Read(fixtures{}, scenario, cmd)
}

// FixtureFile is the file under fixtures/eos/<scenario>/ that holds cmd's output: the command
// with every run of other characters than letters, digits and '-' turned into '_', plus
// ".txt" ("show interfaces | json" -> "show_interfaces_json.txt"). The lab serves the same files.
func FixtureFile(cmd string) string {
	return fixturename.File(cmd)
}
