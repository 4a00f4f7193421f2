package cumuluscheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// The same switch read with `-o json` and with JSON refused: every fact but the counters is
// the same, frame counts agree, and a byte counter is exact in JSON where the text rounds it.
func TestJSONAndTextGiveTheSameFacts(t *testing.T) {
	sw := leaf2()
	p := sw.Port("swp2")
	p.Counters = map[string]int64{"queue3_tx_packets": 202328436, "queue3_tx_bytes": 203884632744, "queue3_drop_bytes": 76993,
		"queue3_ecn_marked_packets": 1843, "pfc_tx_pause_prio3": 1271}
	fromJSON, fromText := collect(t, sw), collectText(t, sw)

	j, x := fromJSON.Port("swp2").Counters.Value, fromText.Port("swp2").Counters.Value
	if j["queue3_tx_bytes"] != 203884632744 || j["queue3_drop_bytes"] != 76993 || j["queue3_ecn_marked_packets"] != 1843 {
		t.Errorf("JSON counters not exact: %v", j)
	}
	if x["queue3_tx_bytes"] == 203884632744 || x["queue3_drop_bytes"] == 76993 {
		t.Errorf("text counters should be NVUE's rounded bytes: tx %d, drop %d", x["queue3_tx_bytes"], x["queue3_drop_bytes"])
	}
	for _, k := range []string{"queue3_tx_packets", "pfc_tx_pause_prio3"} {
		if j[k] != x[k] || j[k] == 0 {
			t.Errorf("%s: JSON %d, text %d", k, j[k], x[k])
		}
	}

	if d := cmp.Diff(fromJSON.LLDP.Value, fromText.LLDP.Value); d != "" {
		t.Errorf("LLDP (-json +text):\n%s", d)
	}
	for i := range fromJSON.Ports {
		a, b := *fromJSON.Ports[i], *fromText.Ports[i]
		a.Counters, b.Counters = topology.Fact[map[string]int64]{}, topology.Fact[map[string]int64]{}
		if d := cmp.Diff(a, b, factOpts); d != "" {
			t.Errorf("%s (-json +text):\n%s", a.Name, d)
		}
	}
}
