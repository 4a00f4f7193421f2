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

// Pruning drops the counters checks do not read into a new map, and leaves a map that holds
// none of them (a collector filtered it while parsing) as it is.
func TestPruneHostCounters(t *testing.T) {
	mixed := map[string]int64{"rx_prio3_pause": 4, "rx_out_of_buffer": 0, "rx_vport_unicast_bytes": 3}
	kept := map[string]int64{"rx_prio3_pause": 4, "tx_packets": 10}
	d := &Device{Host: &HostFacts{Ports: []*HostPort{
		{Netdev: "a", Counters: Known(mixed, Evidence{})},
		{Netdev: "b", Counters: Known(kept, Evidence{})},
		{Netdev: "c"},
	}}}
	PruneHostCounters(d)
	if got := d.Host.Ports[0].Counters.Value; !maps.Equal(got, map[string]int64{"rx_prio3_pause": 4}) || len(mixed) != 3 {
		t.Errorf("mixed: %v (the collected map now %v)", got, mixed)
	}
	kept["marker"] = 1 // the very map stayed: the port sees what is written to it
	if got := d.Host.Ports[1].Counters.Value; len(got) != 3 {
		t.Errorf("a map of kept counters was copied: %v", got)
	}
	if d.Host.Ports[2].Counters.Value != nil {
		t.Errorf("a port without counters got %v", d.Host.Ports[2].Counters.Value)
	}
}
