package linux

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

func TestParsePFCPreventionTout(t *testing.T) {
	for out, want := range map[string]int{"pfc-prevention-tout: 8000\n": 8000, "pfc-prevention-tout: 0\n": 0, "pfc-prevention-tout: 100": 100} {
		if got, err := ParsePFCPreventionTout(out); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", out, got, err, want)
		}
	}
	for _, bad := range []string{"", "rx-copybreak: 256\n", "pfc-prevention-tout: auto\n", "pfc-prevention-tout: 70000\n"} {
		if _, err := ParsePFCPreventionTout(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Only ethtool's refusal of the tunable means the NIC has none; a read that fails any other
// way leaves the timeout unknown, for LINK-PFC-STORM to report as an error.
func TestStormTimeoutUnsupportedOnlyWhenRefused(t *testing.T) {
	const cmd = "ethtool --get-tunable ens1f0np0 pfc-prevention-tout"
	for _, tc := range []struct {
		name string
		out  collectors.Output
		want topology.FactStatus
	}{
		{"refused", collectors.Output{ExitCode: 255, Stderr: "pfc-prevention-tout: Cannot get tunable\n"}, topology.FactUnsupported},
		{"ethtool missing", collectors.Output{ExitCode: 127, Stderr: "bash: line 1: ethtool: command not found\n"}, topology.FactUnknown},
		{"ethtool too old to name it", collectors.Output{ExitCode: 1, Stderr: "ethtool: bad command line argument(s)\n"}, topology.FactUnknown},
		{"output not understood", collectors.Output{Stdout: "pfc-prevention-tout: auto\n"}, topology.FactUnknown},
		{"read", collectors.Output{Stdout: "pfc-prevention-tout: 100\n"}, topology.FactKnown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRunner("ofed-lossless")
			f.overrides[cmd] = tc.out
			dev, err := collectScenario(t, f, inventory.DeviceSpec{Name: "gpu01"})
			if err != nil {
				t.Fatal(err)
			}
			got := dev.Host.Ports[0].PFCPreventionMs
			if got.Status != tc.want {
				t.Fatalf("status %v (reason %q, error %q), want %v", got.Status, got.Reason, got.Source.Error, tc.want)
			}
			if tc.want == topology.FactUnknown && got.Source.Error == "" {
				t.Error("an unread timeout carries no error to report")
			}
		})
	}
}
