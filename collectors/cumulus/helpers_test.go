package cumulus

import (
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturename"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

const fixtureRoot = "../../fixtures/cumulus"

// fixtures are fixtures/cumulus, named and allowed as the Cumulus collector names and allows
// commands.
type fixtures struct{ Platform }

func (fixtures) FixtureDir() string               { return fixtureRoot }
func (fixtures) Allowlist() *collectors.Allowlist { return Descriptor().Allowlist() }
func (fixtures) FixtureFile(cmd string) string    { return FixtureFile(cmd) }

// FixtureFile is the file under fixtures/cumulus/<scenario>/ that holds cmd's output: the
// command with every run of characters other than letters, digits and '-' turned into '_',
// plus ".txt" ("nv show interface swp1 qos pfc" -> "nv_show_interface_swp1_qos_pfc.txt").
func FixtureFile(cmd string) string {
	return fixturename.File(cmd)
}

// verbatim reads a file of fixtures/cumulus/verbatim (parser inputs copied from the reference).
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

// portOrdered is sent with its first `shared` (switch-wide) commands in place and the rest
// grouped by the port they name, in ports' order, each port's commands in the order sent:
// ports are read concurrently, so only the order within a port is fixed. Commands that name
// none of ports are kept at the end, where a diff shows them.
func portOrdered(sent []string, shared int, ports []string) []string {
	if len(sent) < shared {
		return sent
	}
	out := slices.Clone(sent[:shared])
	rest := sent[shared:]
	placed := make([]bool, len(rest))
	for _, p := range ports {
		for i, c := range rest {
			if f := strings.Fields(c); !placed[i] && len(f) > 3 && f[3] == p {
				out, placed[i] = append(out, c), true
			}
		}
	}
	for i, c := range rest {
		if !placed[i] {
			out = append(out, c)
		}
	}
	return out
}
