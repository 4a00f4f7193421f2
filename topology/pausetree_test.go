package topology

import (
	"slices"
	"strings"
	"testing"
)

// pauseTransfer is gpu01 -> leaf1 (Ethernet0 > Ethernet48) -> spine1 (Ethernet0 > Ethernet4)
// -> leaf2 (Ethernet48 > Ethernet8) -> gpu02, with the given counter deltas per port.
func pauseTransfer(deltas map[string]map[string]int64) Transfer {
	x := Transfer{From: Endpoint{"gpu01", "ens1f0np0"}, To: Endpoint{"gpu02", "ens1f0np0"},
		Paths: [][]Hop{{{"leaf1", "Ethernet0", "Ethernet48"}, {"spine1", "Ethernet0", "Ethernet4"}, {"leaf2", "Ethernet48", "Ethernet8"}}}}
	for _, port := range []string{"gpu01:ens1f0np0", "leaf1:Ethernet0", "leaf1:Ethernet48", "spine1:Ethernet0",
		"spine1:Ethernet4", "leaf2:Ethernet48", "leaf2:Ethernet8", "gpu02:ens1f0np0"} {
		dev, iface, _ := strings.Cut(port, ":")
		d := deltas[port]
		if d == nil { // a port that saw no pause still reports its counters at zero
			if dev == "gpu01" || dev == "gpu02" {
				d = map[string]int64{"rx_prio3_pause": 0, "tx_prio3_pause": 0}
			} else {
				d = map[string]int64{"pfc_rx_pause_prio3": 0, "pfc_tx_pause_prio3": 0}
			}
		}
		x.Hops = append(x.Hops, HopCounters{Device: dev, Interface: iface, CounterDeltas: d})
	}
	return x
}

func sw(rx, tx int64) map[string]int64 {
	return map[string]int64{"pfc_rx_pause_prio3": rx, "pfc_tx_pause_prio3": tx}
}

func TestPauseTreeOneCulpritTwoVictims(t *testing.T) {
	// spine1's egress Ethernet4 is not paused, yet spine1 pauses leaf1: spine1 cannot drain.
	x := pauseTransfer(map[string]map[string]int64{
		"gpu01:ens1f0np0":  {"rx_prio3_pause": 40, "tx_prio3_pause": 0},
		"leaf1:Ethernet0":  sw(0, 40),
		"leaf1:Ethernet48": sw(120, 0),
		"spine1:Ethernet0": sw(0, 121),
	})
	tr := BuildPauseTree(x, 3)
	if !tr.Paused || len(tr.Culprits) != 1 || tr.Culprits[0].Port != "spine1:Ethernet0" ||
		tr.Culprits[0].Egress != "spine1:Ethernet4" || tr.Culprits[0].Host || tr.Culprits[0].Frames != 121 {
		t.Fatalf("culprits %+v", tr.Culprits)
	}
	if want := []string{"gpu01:ens1f0np0", "leaf1:Ethernet48"}; !slices.Equal(tr.Victims, want) {
		t.Errorf("victims %v, want %v", tr.Victims, want)
	}
	if len(tr.Mismatches) != 0 || len(tr.Blind) != 0 {
		t.Errorf("120 vs 121 is within tolerance: %+v, blind %v", tr.Mismatches, tr.Blind)
	}
}

func TestPauseTreeNoPause(t *testing.T) {
	tr := BuildPauseTree(pauseTransfer(nil), 3)
	if tr.Paused || len(tr.Culprits) != 0 || len(tr.Victims) != 0 || len(tr.Mismatches) != 0 {
		t.Fatalf("%+v", tr)
	}
	// Pause on another priority is not RoCE's.
	other := pauseTransfer(map[string]map[string]int64{"gpu02:ens1f0np0": {"tx_prio3_pause": 0, "tx_prio4_pause": 50}})
	if tr := BuildPauseTree(other, 3); tr.Paused || len(tr.Culprits) != 0 {
		t.Errorf("priority 4 pause counted on 3: %+v", tr)
	}
}

func TestPauseTreeCounterMismatchNamesBothEnds(t *testing.T) {
	// spine1 says it paused leaf1 500 times; leaf1 received none of them.
	x := pauseTransfer(map[string]map[string]int64{"spine1:Ethernet0": sw(0, 500)})
	tr := BuildPauseTree(x, 3)
	if len(tr.Mismatches) != 1 {
		t.Fatalf("mismatches %+v", tr.Mismatches)
	}
	m := tr.Mismatches[0]
	if got, want := m.String(), "spine1:Ethernet0 pfc_tx_pause_prio3 +500 vs leaf1:Ethernet48 pfc_rx_pause_prio3 +0"; got != want {
		t.Errorf("mismatch %q, want %q", got, want)
	}
}

func TestPauseTreeSlowReceiverHostIsTheCulprit(t *testing.T) {
	x := pauseTransfer(map[string]map[string]int64{
		"gpu02:ens1f0np0":  {"rx_prio3_pause": 0, "tx_prio3_pause": 300, "tx_prio3_pause_duration": 9000},
		"leaf2:Ethernet8":  sw(300, 0),
		"leaf2:Ethernet48": sw(0, 10),
		"spine1:Ethernet4": sw(10, 0),
	})
	tr := BuildPauseTree(x, 3)
	if len(tr.Culprits) != 1 || tr.Culprits[0].Port != "gpu02:ens1f0np0" || !tr.Culprits[0].Host ||
		tr.Culprits[0].DurationUS != 9000 || tr.Culprits[0].Egress != "" {
		t.Fatalf("culprits %+v", tr.Culprits)
	}
	if want := []string{"leaf2:Ethernet8", "spine1:Ethernet4"}; !slices.Equal(tr.Victims, want) {
		t.Errorf("victims %v, want %v", tr.Victims, want)
	}
}

func TestPauseTreeBlindPortsAndTotals(t *testing.T) {
	// spine1 is EOS-like: per-port PFC totals on Ethernet0, only 802.3x on Ethernet4.
	x := pauseTransfer(map[string]map[string]int64{
		"gpu02:ens1f0np0":  {"tx_prio3_pause": 30},
		"leaf2:Ethernet8":  sw(30, 0),
		"leaf2:Ethernet48": sw(0, 20),
		"spine1:Ethernet4": {"rx_pause": 0, "tx_pause": 0},
		"spine1:Ethernet0": {"pfc_rx_frames": 0, "pfc_tx_frames": 15}, // other priorities would only add
		"leaf1:Ethernet48": sw(12, 0),
		"leaf1:Ethernet0":  sw(0, 5),
		"gpu01:ens1f0np0":  {"rx_prio3_pause": 5},
	})
	tr := BuildPauseTree(x, 3)
	if !slices.Equal(tr.Blind, []string{"spine1:Ethernet4"}) {
		t.Errorf("blind %v", tr.Blind)
	}
	if len(tr.Mismatches) != 0 {
		t.Errorf("a total of 15 covers 12 received on priority 3: %+v", tr.Mismatches)
	}
	if len(tr.Culprits) != 1 || tr.Culprits[0].Port != "gpu02:ens1f0np0" {
		t.Errorf("culprits %+v", tr.Culprits)
	}
	// A total below the per-priority count of its peer is a broken counter.
	x.Hops[3].CounterDeltas = map[string]int64{"pfc_rx_frames": 0, "pfc_tx_frames": 2} // spine1:Ethernet0
	if tr := BuildPauseTree(x, 3); len(tr.Mismatches) != 1 || tr.Mismatches[0].Receiver != "leaf1:Ethernet48" {
		t.Errorf("mismatches %+v", tr.Mismatches)
	}
}
