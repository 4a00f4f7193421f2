package sonic

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturename"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

const fixtureRoot = "../../fixtures/sonic"

// fixtures are fixtures/sonic, named and allowed as the SONiC collector names and allows
// commands.
type fixtures struct{ Platform }

func (fixtures) FixtureDir() string               { return fixtureRoot }
func (fixtures) Allowlist() *collectors.Allowlist { return Descriptor().Allowlist() }
func (fixtures) FixtureFile(cmd string) string    { return FixtureFile(cmd) }

// FixtureFile is the file under fixtures/sonic/<scenario>/ that holds cmd's output: the
// command with every run of characters other than letters, digits and '-' turned into '_',
// plus ".txt" ("show lldp table" -> "show_lldp_table.txt").
func FixtureFile(cmd string) string {
	return fixturename.File(cmd)
}

// verbatim reads a file of fixtures/sonic/verbatim (parser inputs copied from the reference).
func verbatim(t *testing.T, name string) string {
	t.Helper()
	return fixturerunner.Verbatim(t, fixtures{}, name)
}

// scenario reads the output a scenario holds for cmd.
func scenario(t *testing.T, name, cmd string) string {
	t.Helper()
	return fixturerunner.MustRead(t, fixtures{}, name, cmd)
}

// fakeRunner serves a scenario's files by command string and refuses what the allowlist
// refuses, as the real runner does. Override and Fail replace single commands.
type fakeRunner = fixturerunner.Runner[fixtures]

func mustDB(t *testing.T, out string) *ConfigDB {
	t.Helper()
	db, err := ParseRunningConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
