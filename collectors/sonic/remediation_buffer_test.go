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
	facts := exampleSwitch() // 100G, 300 m told, a 40 m profile; ECN from 2 MB
	for _, tc := range []struct {
		id    string
		facts *topology.SwitchPort
		want  []string
	}{
		// By hand: cable 2 x 300 x 1e14 / 1.98e8 / 8192 = 36991.3; delay 9100 + 36991.3 + 819.2 +
		// 25216 = 72126.5; x 2.25 (144-byte cells) + 1024 = 163308.6 -> 160 KB: xoff 163840.
		{"SW-HEADROOM", facts, []string{"HSET 'CABLE_LENGTH|AZURE' Ethernet8 300m", "HSET 'BUFFER_PG|Ethernet8|3' profile pg_lossless_100000_300m_profile",
			"'BUFFER_PROFILE|pg_lossless_100000_300m_profile' xoff 163840 xon 18432 size 182272", "sudo config save -y"}},
		{"SW-HEADROOM", nil, []string{"were not read"}},
		// trigger = 18432 + 1/9 of 12766208 = 18432 + 1418467 = 1436899 B: Kmin half of it, Kmax 90%.
		{"SW-ECN-PFC-ORDER", facts, []string{"HSET 'WRED_PROFILE|AZURE_LOSSLESS' green_min_threshold 718449",
			"green_max_threshold 1293209", "sudo config save -y"}},
		{"SW-ECN-PFC-ORDER", nil, []string{"not read"}},
	} {
		got := Remediation(remedy.Input{CheckID: tc.id, Port: "Ethernet8", Switch: tc.facts, Recipe: r})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.id, got, w)
			}
		}
	}
}
