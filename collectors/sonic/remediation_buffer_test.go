package sonic

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

func TestBufferRemediation(t *testing.T) {
	r := recipe.Default()
	facts := &topology.SwitchPort{
		Headroom: topology.Known(topology.Headroom{SpeedMbps: 100000, CableM: 300}, topology.Evidence{}),
		ECNOrder: topology.Known(topology.ECNOrder{Queues: map[int]topology.ECNThreshold{3: {Profile: "AZURE_LOSSLESS_ETHERNET48"}}}, topology.Evidence{}),
	}
	for _, tc := range []struct {
		id    string
		facts *topology.SwitchPort
		want  []string
	}{
		{"SW-HEADROOM", facts, []string{"HSET 'CABLE_LENGTH|AZURE' Ethernet8 300m", "HSET 'BUFFER_PG|Ethernet8|3' profile pg_lossless_100000_300m_profile"}},
		{"SW-HEADROOM", nil, []string{"HSET 'CABLE_LENGTH|AZURE' Ethernet8 <N>m", "pg_lossless_<speed Mb/s>_<N>m_profile"}},
		{"SW-ECN-PFC-ORDER", facts, []string{"HSET 'WRED_PROFILE|AZURE_LOSSLESS_ETHERNET48' green_min_threshold"}},
		{"SW-ECN-PFC-ORDER", nil, []string{"WRED_PROFILE|<the WRED_PROFILE of queue 3>"}},
	} {
		got := Remediation(remedy.Input{CheckID: tc.id, Port: "Ethernet8", Switch: tc.facts, Recipe: r})
		for _, w := range append(tc.want, "sudo config save -y") {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.id, got, w)
			}
		}
	}
}
