package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func TestHostPFCStorm(t *testing.T) {
	for _, tc := range []struct {
		name     string
		counters map[string]int64
		timeout  topology.Fact[int]
		status   Status
		text     string
	}{
		{"quiet", map[string]int64{stormWarning: 0, stormError: 0}, topology.Known(8000, src("ethtool --get-tunable")), Pass, "storm prevention timeout 8000 ms"},
		{"warning mark", map[string]int64{stormWarning: 3, stormError: 0}, topology.Fact[int]{}, Warn, stormWarning + " 3"},
		{"error mark", map[string]int64{stormWarning: 5, stormError: 2}, topology.Fact[int]{}, Warn, stormError + " 2"},
		{"prevention off", map[string]int64{stormWarning: 0, stormError: 0}, topology.Known(0, src("ethtool --get-tunable")), Warn, "storm prevention timeout 0 ms"},
		{"not mlx5", map[string]int64{"rx_packets": 9}, topology.Fact[int]{}, Skip, "no pause-storm counters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := healthyPort()
			p.Counters = topology.Known(tc.counters, src("ethtool -S ens1f0np0"))
			p.PFCPreventionMs = tc.timeout
			r := runPort(t, p)["HOST-PFC-STORM"]
			if r.Status != tc.status || !strings.Contains(r.Actual, tc.text) {
				t.Fatalf("got %s %q, want %s %q", r.Status, r.Actual, tc.status, tc.text)
			}
			if r.Status == Warn && (r.Evidence == nil || r.Message == "") {
				t.Errorf("a warning must say why and show the counters: %+v", r)
			}
		})
	}
}
