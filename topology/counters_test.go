package topology

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
)

// A snapshot read for checking keeps on host ports only the counters checks read, whatever
// its layout (one device a line, or the older plain JSON); read plainly it keeps them all.
func TestReadSnapshotKeepsCheckedCounters(t *testing.T) {
	all := map[string]int64{"tx_pause_storm_error_events": 1, "rx_prio3_pause_duration": 4, "rx_out_of_buffer": 0,
		"rdma_packet_seq_err": 2, "tx_packets": 10, "rx_vport_unicast_bytes": 3, "rdma_rp_cnp_handled": 8}
	want := map[string]int64{"tx_pause_storm_error_events": 1, "rx_prio3_pause_duration": 4, "rdma_packet_seq_err": 2, "tx_packets": 10}
	s := sampleSnapshot(2)
	for _, d := range s.Devices {
		if d.Host != nil {
			d.Host.Ports[0].Counters = Known(maps.Clone(all), Evidence{Command: "ethtool -S eth0"})
		}
	}
	plain, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for layout, data := range map[string][]byte{"lines": encode(t, s, nil, false), "plain": plain} {
		for _, checked := range []bool{false, true} {
			got, err := ReadSnapshot(bytes.NewReader(data), ReadOptions{CheckedCounters: checked})
			if err != nil {
				t.Fatal(err)
			}
			expect := all
			if checked {
				expect = want
			}
			c := got.Devices[1].Host.Ports[0].Counters
			if !c.Usable() || !maps.Equal(c.Value, expect) {
				t.Errorf("%s, checked %v: %+v, want %v", layout, checked, c, expect)
			}
			if got.Devices[2].Host != nil || got.Devices[2].Error != "refused" {
				t.Errorf("%s: the switch without facts changed: %+v", layout, got.Devices[2])
			}
		}
	}
}
