package lab

import (
	"testing"

	"github.com/roceaudit/roceaudit/lab/cumulus"
	"github.com/roceaudit/roceaudit/lab/eos"
	"github.com/roceaudit/roceaudit/lab/nxos"
	"github.com/roceaudit/roceaudit/lab/sonic"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Every switch of every scenario is a state its platform can show as stated: a fault on a
// knob the NOS only has switch-wide would silently become a different fault.
func TestScenarioSwitchesAreExpressibleOnTheirPlatform(t *testing.T) {
	validate := map[string]func(*switchstate.Switch) error{
		"sonic": sonic.Validate, "cumulus": cumulus.Validate, "eos": eos.Validate, "nxos": nxos.Validate,
	}
	for _, sc := range Scenarios() {
		devs, err := build(sc, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range devs {
			if d.sw == nil {
				continue
			}
			n++
			if err := validate[d.platform](d.sw); err != nil {
				t.Errorf("%s %s: %v", sc, d.name, err)
			}
		}
		want := len(fabricSwitches)
		if v, ok := vendorScenarios[sc]; ok {
			want = len(v.fabric().switches)
		}
		if sc == ScenarioHostVariants {
			want = len(hostVariantFabric().switches)
		}
		if n != want {
			t.Errorf("%s: %d switches, want %d", sc, n, want)
		}
	}
}

// Every fabric cable ends on a port its switch has, and every switch port is cabled.
func TestFabricCabling(t *testing.T) {
	used := map[string]bool{}
	for _, c := range fabricCables() {
		for _, e := range c {
			key := e.device + ":" + e.port
			if used[key] {
				t.Errorf("%s cabled twice", key)
			}
			used[key] = true
		}
	}
	for _, s := range fabricSwitches {
		for _, p := range s.ports {
			if !used[s.name+":"+p] {
				t.Errorf("%s:%s has no cable", s.name, p)
			}
		}
	}
}
