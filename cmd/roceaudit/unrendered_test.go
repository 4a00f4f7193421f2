package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/recipe"
)

// No remediation of a real audit of the lab, in either scenario, under the default recipe or
// a custom one, prints a placeholder or a default value the recipe overrides.
func TestAuditRemediationsAreFullyRendered(t *testing.T) {
	custom := recipe.Default()
	custom.SwitchMTU, custom.HostMTU, custom.RoCEDSCP, custom.RoCEToS = 9100, 4200, 24, []int{96, 98}
	const customYAML = "\nrecipe: {switch_mtu: 9100, host_mtu: 4200, roce_dscp: 24, roce_tos: [96, 98]}\n"
	for _, scenario := range lab.Scenarios() {
		l := startLab(t, scenario)
		for _, tc := range []struct {
			name string
			r    recipe.Recipe
			yaml string
		}{{"default recipe", recipe.Default(), ""}, {"custom recipe", custom, customYAML}} {
			inv := l.InventoryPath
			if tc.yaml != "" {
				b, err := os.ReadFile(l.InventoryPath)
				if err != nil {
					t.Fatal(err)
				}
				// Beside the lab's key and known_hosts, which the inventory names relative to itself.
				inv = filepath.Join(filepath.Dir(l.InventoryPath), "custom.yaml")
				if err := os.WriteFile(inv, append(b, tc.yaml...), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errs := run(t, "audit", "-i", inv, "--format", "json")
			if code != exitOK && code != exitFailed && code != exitIncomplete {
				t.Fatalf("%s, %s: exit %d: %s", scenario, tc.name, code, errs)
			}
			fixes := 0
			for _, res := range decodeReport(t, out).Results {
				if res.Remediation == "" {
					continue
				}
				fixes++
				if bad := labcheck.Unrendered(res.Remediation, tc.r); len(bad) > 0 {
					t.Errorf("%s, %s: %s %s:%s: unrendered %q in %q", scenario, tc.name, res.Check, res.Device, res.Interface, bad, res.Remediation)
				}
			}
			if want := scenario == lab.ScenarioBroken || tc.yaml != ""; want && fixes == 0 {
				t.Errorf("%s, %s: no remediation to check", scenario, tc.name)
			}
		}
	}
}
