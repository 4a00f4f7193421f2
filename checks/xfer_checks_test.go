package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

func xferResults(x topology.Transfer) map[string]Result {
	snap := &topology.Snapshot{Recipe: recipe.Default(), Transfers: []topology.Transfer{x}}
	out := map[string]Result{}
	for _, r := range Run(snap, Options{}) {
		out[r.Check] = r
	}
	return out
}

func goodTransfer() topology.Transfer {
	return topology.Transfer{
		Paths: [][]topology.Hop{{{Device: "gpu01", OutPort: "ens1f0np0"}, {Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet4"}, {Device: "gpu05", InPort: "ens1f0np0"}}},
		From:  topology.Endpoint{Device: "gpu01", Interface: "ens1f0np0"}, To: topology.Endpoint{Device: "gpu05", Interface: "ens1f0np0"},
		GIDIndex: map[string]int{"from": 3, "to": 3}, Ran: true, BandwidthGbps: 96.5, LinkGbps: 100, SlowestLink: "gpu01:ens1f0np0",
		ClientCommand: "timeout 20 ib_write_bw ... 10.1.0.5",
		Hops: []topology.HopCounters{
			{Device: "gpu01", Role: topology.RoleHost, Interface: "ens1f0np0", CounterDeltas: map[string]int64{"rdma_out_of_sequence": 0, "tx_prio3_packets": 1000}},
			{Device: "leaf1", Role: topology.RoleSwitch, Interface: "Ethernet0", CounterDeltas: map[string]int64{"queue3_drops": 0, "pfc_rx_pause_prio3": 12, "queue0_drops": 40}},
		},
	}
}

func TestHealthyTransferPasses(t *testing.T) {
	for id, r := range xferResults(goodTransfer()) {
		if r.Status != Pass {
			t.Errorf("%s = %s (%s)", id, r.Status, r.Message)
		}
		if r.Path != "gpu01:ens1f0np0->gpu05:ens1f0np0" {
			t.Errorf("%s path %q", id, r.Path)
		}
	}
}

func TestSwitchHopsWithoutDropCountersAreNamed(t *testing.T) {
	x := goodTransfer()
	x.Hops = append(x.Hops, topology.HopCounters{Device: "leaf3", Role: topology.RoleSwitch, Interface: "Ethernet1",
		CounterDeltas: map[string]int64{"pfc_rx_pause_prio3": 4}})
	r := xferResults(x)["XFER-RETRANS"]
	if r.Status != Pass || !strings.Contains(r.Message, "expose no drop counter") || !strings.Contains(r.Message, "leaf3:Ethernet1") ||
		strings.Contains(r.Message, "leaf1:Ethernet0") {
		t.Errorf("%+v", r)
	}
}

func TestTransferWithUnreadCountersIsNotAPass(t *testing.T) {
	x := goodTransfer()
	x.UnsampledPorts, x.CounterError = []string{"spine2:Ethernet8"}, "spine2: ssh timeout"
	r := xferResults(x)["XFER-RETRANS"]
	if r.Status != Error || !strings.Contains(r.Message, "spine2:Ethernet8") || !strings.Contains(r.Message, "ssh timeout") {
		t.Errorf("%+v", r)
	}
}

func TestLossyTransferNamesTheHop(t *testing.T) {
	x := goodTransfer()
	x.BandwidthGbps = 21.3
	x.Hops = append(x.Hops,
		topology.HopCounters{Device: "leaf4", Role: topology.RoleSwitch, Interface: "Ethernet1/4", CounterDeltas: map[string]int64{"queue3_drops": 18204, "pfc_rx_pause_prio3": 0}},
		topology.HopCounters{Device: "gpu05", Role: topology.RoleHost, Interface: "ens1f0np0", CounterDeltas: map[string]int64{"rdma_out_of_sequence": 950}})
	res := xferResults(x)
	rt := res["XFER-RETRANS"]
	if rt.Status != Fail || rt.Device != "leaf4" || rt.Interface != "Ethernet1/4" {
		t.Fatalf("XFER-RETRANS %+v", rt)
	}
	if !strings.Contains(rt.Actual, "leaf4 Ethernet1/4: queue3_drops +18,204 during the transfer; PFC pause frames received on priority 3: 0") {
		t.Errorf("actual %q", rt.Actual)
	}
	if !strings.Contains(rt.Message, "gpu05 ens1f0np0: rdma_out_of_sequence +950") {
		t.Errorf("message %q", rt.Message)
	}
	bw := res["XFER-BW"]
	if bw.Status != Fail || !strings.Contains(bw.Actual, "21.3 Gb/s of 100 Gb/s (21%), slowest link gpu01:ens1f0np0") ||
		!strings.Contains(bw.Message, "leaf4 Ethernet1/4") || !strings.HasPrefix(bw.Message, "bandwidth far below the slowest link (gpu01:ens1f0np0, 100 Gb/s)") {
		t.Errorf("XFER-BW %+v", bw)
	}
	if res["XFER-RUN"].Status != Pass {
		t.Errorf("XFER-RUN %+v", res["XFER-RUN"])
	}
}

// XFER-BW measures against the slowest port of the path, switch ports included, and names it.
func TestBandwidthAgainstTheSlowestLink(t *testing.T) {
	x := goodTransfer()
	x.BandwidthGbps, x.LinkGbps, x.SlowestLink = 24.1, 25, "spine2:Ethernet4"
	bw := xferResults(x)["XFER-BW"]
	if bw.Status != Pass || bw.Actual != "24.1 Gb/s of 25 Gb/s (96%), slowest link spine2:Ethernet4" {
		t.Errorf("24.1 of a 25G path: %+v", bw)
	}
	x.BandwidthGbps = 12.4
	bw = xferResults(x)["XFER-BW"]
	if bw.Status != Fail || bw.Actual != "12.4 Gb/s of 25 Gb/s (50%), slowest link spine2:Ethernet4" ||
		bw.Message != "bandwidth far below the slowest link (spine2:Ethernet4, 25 Gb/s)" {
		t.Errorf("12.4 of a 25G path: %+v", bw)
	}
	// A fractional speed prints as such; a transfer from before SlowestLink existed names none.
	x.BandwidthGbps, x.LinkGbps, x.SlowestLink = 2.4, 2.5, ""
	bw = xferResults(x)["XFER-BW"]
	if bw.Status != Pass || bw.Actual != "2.4 Gb/s of 2.5 Gb/s (96%)" {
		t.Errorf("2.4 of 2.5G, no name: %+v", bw)
	}
	x.LinkGbps = 0
	if bw = xferResults(x)["XFER-BW"]; bw.Status != Error || bw.Message != "the link speed of the path is unknown" {
		t.Errorf("no known speed: %+v", bw)
	}
}

func TestTransferThatDidNotRun(t *testing.T) {
	x := goodTransfer()
	x.Ran, x.Hops = false, nil
	x.Error, x.ErrorKind = "perftest: perftest is not installed", "not-installed"
	res := xferResults(x)
	if r := res["XFER-RUN"]; r.Status != Error {
		t.Errorf("XFER-RUN %+v", r)
	}
	// The client host's platform names the installer, told what the transfer said.
	snap := &topology.Snapshot{Recipe: recipe.Default(), Transfers: []topology.Transfer{x}, Devices: []*topology.Device{
		{Name: "gpu01", Platform: "linux", Role: topology.RoleHost, Reachable: true, Host: &topology.HostFacts{}}}}
	fix := func(platform string, in remedy.Input) string {
		if in.Transfer == nil {
			return "no transfer"
		}
		return platform + " fix for " + in.CheckID + " on " + in.Port + ": " + in.Transfer.ErrorKind
	}
	for _, r := range Run(snap, Options{Remedy: fix}) {
		if r.Check == "XFER-RUN" && r.Remediation != "linux fix for XFER-RUN on ens1f0np0: not-installed" {
			t.Errorf("XFER-RUN remediation %q", r.Remediation)
		}
	}
	if res["XFER-BW"].Status != Skip || res["XFER-RETRANS"].Status != Skip {
		t.Errorf("BW %s, RETRANS %s", res["XFER-BW"].Status, res["XFER-RETRANS"].Status)
	}
	x.ErrorKind = "transport"
	res = xferResults(x)
	if r := res["XFER-RUN"]; r.Status != Fail {
		t.Errorf("a transport failure is a failed path, not an incomplete audit: %+v", r)
	}
	if r := res["XFER-RETRANS"]; r.Status != Error {
		t.Errorf("a transport failure without counters cannot say where: %+v", r)
	}
}

func TestLossCounterFiltersOtherQueues(t *testing.T) {
	r := recipe.Default()
	for name, want := range map[string]bool{
		"queue3_drops": true, "queue0_drops": false, "rx_prio3_discards": true, "rx_prio0_discards": false,
		"rdma_out_of_sequence": true, "rdma_packet_seq_err": true, "rx_discards_phy": true, "pfc_rx_pause_prio3": false,
		"queue3_wred_drops": true, "tx_prio3_packets": false,
	} {
		if got := lossCounter(r, name); got != want {
			t.Errorf("lossCounter(%s) = %v", name, got)
		}
	}
}

// A transfer that measured but left its server running warns, saying what bounds it.
func TestTransferThatLeftItsServerRunning(t *testing.T) {
	x := goodTransfer()
	x.ServerLeftover = "the perftest server on gpu02 still listened on TCP port 18515 after it was stopped; its coreutils timeout ends it at the latest 20s after it started"
	r := xferResults(x)["XFER-RUN"]
	if r.Status != Warn || r.Message != x.ServerLeftover || !strings.Contains(r.Remediation, "sudo") {
		t.Errorf("XFER-RUN %+v", r)
	}
	x.Ran, x.Error, x.ErrorKind = false, "perftest: timeout", "timeout"
	if r := xferResults(x)["XFER-RUN"]; r.Status != Error || !strings.Contains(r.Message, "still listened") {
		t.Errorf("did not run, left over: %+v", r)
	}
}
