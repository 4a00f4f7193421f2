package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// pausedTransfer is gpu01 -> leaf1 (Ethernet0 > Ethernet4) -> gpu05 for 10 s, gpu05 pausing
// its leaf for pausedUS microseconds with 200 frames, passed on to gpu01.
func pausedTransfer(pausedUS int64) topology.Transfer {
	x := goodTransfer()
	x.ClientCommand = "timeout 20 ib_write_bw -d mlx5_0 -i 1 -x 3 --tclass 106 -F --report_gbits -D 10 -p 18515 -s 65536 10.1.0.5"
	x.Hops = []topology.HopCounters{
		{Device: "gpu01", Role: topology.RoleHost, Interface: "ens1f0np0", CounterDeltas: map[string]int64{"rx_prio3_pause": 110, "tx_prio3_pause": 0}},
		{Device: "gpu05", Role: topology.RoleHost, Interface: "ens1f0np0", CounterDeltas: map[string]int64{"rx_prio3_pause": 0, "tx_prio3_pause": 200, "tx_prio3_pause_duration": pausedUS}},
		{Device: "leaf1", Role: topology.RoleSwitch, Interface: "Ethernet0", CounterDeltas: map[string]int64{"pfc_rx_pause_prio3": 0, "pfc_tx_pause_prio3": 110}},
		{Device: "leaf1", Role: topology.RoleSwitch, Interface: "Ethernet4", CounterDeltas: map[string]int64{"pfc_rx_pause_prio3": 200, "pfc_tx_pause_prio3": 0}},
	}
	return x
}

func TestXferPauseSlowReceiverThrottles(t *testing.T) {
	r := xferResults(pausedTransfer(400_000))["XFER-PAUSE"] // 0.4 s of 10 s
	if r.Status != Warn || r.Device != "gpu05" || r.Interface != "ens1f0np0" ||
		!strings.Contains(r.Actual, "culprit gpu05:ens1f0np0") || !strings.Contains(r.Message, "4.0% of the transfer") ||
		!strings.Contains(r.Message, "victims paused upstream: gpu01:ens1f0np0, leaf1:Ethernet4") ||
		!strings.Contains(r.Remediation, "find why gpu05 cannot drain ens1f0np0") {
		t.Errorf("%+v", r)
	}
}

func TestXferPauseSwitchCulpritNamesItsEgress(t *testing.T) {
	x := pausedTransfer(0)
	x.Hops[1].CounterDeltas = map[string]int64{"rx_prio3_pause": 0, "tx_prio3_pause": 0} // gpu05 drains
	x.Hops[3].CounterDeltas = map[string]int64{"pfc_rx_pause_prio3": 0, "pfc_tx_pause_prio3": 0}
	x.Hops[2].CounterDeltas = map[string]int64{"pfc_rx_pause_prio3": 0, "pfc_tx_pause_prio3": 400}
	x.Hops[0].CounterDeltas["rx_prio3_pause"] = 400
	r := xferResults(x)["XFER-PAUSE"] // no duration counter: 400 frames may pause 134 ms at 100 Gb/s
	if r.Status != Warn || r.Device != "leaf1" || r.Interface != "Ethernet0" ||
		!strings.Contains(r.Message, "while its egress leaf1:Ethernet4 received none") ||
		!strings.Contains(r.Remediation, "find why leaf1 cannot drain Ethernet4") {
		t.Errorf("%+v", r)
	}
}

func TestXferPausePacingAndNoPausePass(t *testing.T) {
	r := xferResults(pausedTransfer(6_000))["XFER-PAUSE"] // 6 ms of 10 s
	if r.Status != Pass || !strings.Contains(r.Actual, "gpu05:ens1f0np0") || !strings.Contains(r.Message, "pacing") {
		t.Errorf("pacing: %+v", r)
	}
	x := pausedTransfer(0)
	for _, h := range x.Hops {
		for k := range h.CounterDeltas {
			h.CounterDeltas[k] = 0
		}
	}
	if r := xferResults(x)["XFER-PAUSE"]; r.Status != Pass || !strings.Contains(r.Actual, "no PFC pause on priority 3") {
		t.Errorf("no pause: %+v", r)
	}
}

func TestXferPauseBrokenCounterIsNotBelieved(t *testing.T) {
	x := pausedTransfer(400_000)
	x.Hops[3].CounterDeltas["pfc_rx_pause_prio3"] = 0 // leaf1 never saw gpu05's 200 frames
	r := xferResults(x)["XFER-PAUSE"]
	if r.Status != Warn || !strings.Contains(r.Actual, "gpu05:ens1f0np0 tx_prio3_pause +200 vs leaf1:Ethernet4 pfc_rx_pause_prio3 +0") ||
		!strings.Contains(r.Remediation, "tx_prio3_pause on gpu05:ens1f0np0") {
		t.Errorf("%+v", r)
	}
}

func TestXferPauseUnreadHopIsAnError(t *testing.T) {
	x := pausedTransfer(0)
	x.UnsampledPorts, x.CounterError = []string{"leaf1:Ethernet4"}, "leaf1: ssh timeout"
	if r := xferResults(x)["XFER-PAUSE"]; r.Status != Error || !strings.Contains(r.Message, "leaf1:Ethernet4") || !strings.Contains(r.Message, "ssh timeout") {
		t.Errorf("%+v", r)
	}
	x.Ran, x.ErrorKind = false, "setup"
	if r := xferResults(x)["XFER-PAUSE"]; r.Status != Skip {
		t.Errorf("not run: %+v", r)
	}
}

// A run held back by a slow receiver lost nothing: XFER-BW names the port that paused it
// rather than sending the reader after a lossy hop.
func TestXferBWNamesThePauseCulprit(t *testing.T) {
	x := pausedTransfer(2_000_000) // 2 s of 10 s
	x.BandwidthGbps = 77
	r := xferResults(x)["XFER-BW"]
	if r.Status != Fail || !strings.Contains(r.Message, "nothing was lost, but gpu05:ens1f0np0 paused the transfer with PFC (XFER-PAUSE)") ||
		!strings.Contains(r.Remediation, "find why gpu05 cannot drain ens1f0np0") {
		t.Errorf("%+v", r)
	}
	// pacing only: the old advice stands
	x = pausedTransfer(6_000)
	x.BandwidthGbps = 77
	if r := xferResults(x)["XFER-BW"]; strings.Contains(r.Message, "paused the transfer") || !strings.Contains(r.Remediation, "XFER-RETRANS") {
		t.Errorf("pacing is not a throttle: %+v", r)
	}
}

// XFER-BW names a culprit only where XFER-PAUSE does: with a port's counters unread, the port
// left out may be the real culprit, so neither names one.
func TestXferBWNamesNoCulpritXferPauseCannotDecide(t *testing.T) {
	x := pausedTransfer(2_000_000)
	x.BandwidthGbps = 77
	x.UnsampledPorts, x.CounterError = []string{"leaf1:Ethernet8"}, "leaf1: ssh timeout"
	res := xferResults(x)
	if p := res["XFER-PAUSE"]; p.Status != Error {
		t.Fatalf("XFER-PAUSE decided with a port unread: %+v", p)
	}
	if r := res["XFER-BW"]; r.Status != Fail || strings.Contains(r.Message, "paused the transfer") || !strings.Contains(r.Remediation, "XFER-RETRANS") {
		t.Errorf("XFER-BW names a culprit XFER-PAUSE could not: %+v", r)
	}
}
