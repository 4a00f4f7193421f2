package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// sonicHeadroom is a SONiC port on Spectrum-3 at 100G, MTU 9216, cable claimed, PG 3 xoff.
func sonicHeadroom(cable, xoff int) topology.Headroom {
	return topology.Headroom{SpeedMbps: 100000, CableM: cable, PortMTU: 9216, ASIC: spectrum(144),
		PGs: map[int]topology.PGHeadroom{3: {Profile: "pg_lossless_100000_40m_profile", Xoff: xoff, Xon: 18432, Size: xoff + 18432}}}
}

func TestSwitchHeadroom(t *testing.T) {
	e := src("show runningconfiguration all")
	for _, tc := range []struct {
		name   string
		fact   topology.Fact[topology.Headroom]
		status Status
		text   string
	}{
		{"sized for 40 m", topology.Known(sonicHeadroom(40, 92160), e), Pass, "xoff 92160 B; need 92160 B for 100000 Mb/s, 40 m"},
		{"one KB short: meets the lookup-table sizing", topology.Known(sonicHeadroom(40, 91136), e), Warn, "need 92160 B"},
		{"one KB short of even the lookup-table sizing", topology.Known(sonicHeadroom(40, 43008), e), Fail, "need 92160 B"},
		{"40 m profile on a 300 m cable", topology.Known(sonicHeadroom(300, 92160), e), Fail, "need 163840 B"},
		// 40 m with the 3.8 KB peer response: (9216 + 4932.13 + 819.2 + 3891.2) x 2.25 + 1024 -> 43 KB.
		{"meets the lookup-table sizing only", topology.Known(sonicHeadroom(40, 44032), e), Warn, "need 92160 B"},
		{"dynamic model", topology.Known(topology.Headroom{Computed: "dynamic buffer model"}, e), Pass, "computed by the switch"},
		{"no lossless PG", topology.Known(topology.Headroom{SpeedMbps: 100000, PortMTU: 9216, ASIC: spectrum(144)}, e), Skip, "no lossless profile"},
		{"no ASIC constants", topology.Known(topology.Headroom{SpeedMbps: 100000, PortMTU: 9216,
			PGs: map[int]topology.PGHeadroom{3: {Xoff: 1}}}, e), Error, "cannot compute"},
		{"EOS", topology.Unsupported(topology.Headroom{}, "EOS shows no headroom", e), Skip, "not supported"},
		{"unreadable", topology.Unknown[topology.Headroom](e), Error, "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.Headroom = tc.fact
			r := swResults(switchSnap(p), Options{})["SW-HEADROOM leaf1:Ethernet1/1"]
			if r.Status != tc.status || !strings.Contains(r.Actual, tc.text) {
				t.Fatalf("got %s %q (%s), want %s %q", r.Status, r.Actual, r.Message, tc.status, tc.text)
			}
			if r.Status != Pass && r.Status != Skip && r.Status != Error && !strings.Contains(r.Message, "short") {
				t.Errorf("message %q", r.Message)
			}
		})
	}
}

func sonicOrder(kmin int64, dynTh int) topology.ECNOrder {
	return topology.ECNOrder{
		Queues: map[int]topology.ECNThreshold{3: {Profile: "AZURE_LOSSLESS", KMin: kmin, KMax: 2 * kmin}},
		PGs: map[int]topology.PFCThreshold{3: {Profile: "pg_lossless_100000_40m_profile", Reserved: 18432,
			DynamicTh: dynTh, HasDynamicTh: true, Pool: "ingress_lossless_pool", PoolSize: 12766208}},
	}
}

func TestSwitchECNPFCOrder(t *testing.T) {
	e := src("show runningconfiguration all")
	static := sonicOrder(1048576, 0)
	static.PGs[3] = topology.PFCThreshold{Profile: "p", Reserved: 1000, StaticTh: 1047576}
	for _, tc := range []struct {
		name   string
		fact   topology.Fact[topology.ECNOrder]
		status Status
		text   string
	}{
		// dynamic_th -3: alpha 1/8, share = 12766208/9 = 1418467; trigger 18432 + 1418467.
		{"1 MB below the trigger", topology.Known(sonicOrder(1048576, -3), e), Pass, "PFC trigger 1436899 B"},
		{"2 MB above it", topology.Known(sonicOrder(2097152, -3), e), Fail, "Kmin 2097152 B"},
		// dynamic_th -7: alpha 1/128, share = 12766208/129 = 98962; trigger 117394.
		{"a small alpha pauses first", topology.Known(sonicOrder(1048576, -7), e), Fail, "PFC trigger 117394 B"},
		// static_th: trigger = reserved + static_th = Kmin exactly: not below.
		{"static threshold equal", topology.Known(static, e), Fail, "reserved 1000 B + static_th 1047576 B"},
		{"no ECN on the queue", topology.Known(topology.ECNOrder{PGs: sonicOrder(1, 0).PGs}, e), Skip, "no ECN threshold on queue 3"},
		{"computed", topology.Known(topology.ECNOrder{Computed: "dynamic buffer model"}, e), Pass, "computed by the switch"},
		{"unsupported", topology.Unsupported(topology.ECNOrder{}, "no bytes", e), Skip, "not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.ECNOrder = tc.fact
			r := swResults(switchSnap(p), Options{})["SW-ECN-PFC-ORDER leaf1:Ethernet1/1"]
			if r.Status != tc.status || !strings.Contains(r.Actual, tc.text) {
				t.Fatalf("got %s %q (%s), want %s %q", r.Status, r.Actual, r.Message, tc.status, tc.text)
			}
		})
	}
}

// spectrum is SONiC's ASIC_TABLE for Spectrum-1 (cell 96) or Spectrum-2/3 (cell 144), with the
// LOSSLESS_TRAFFIC_PATTERN mtu 1024 and small_packet_percentage 100.
func spectrum(cell int) topology.HeadroomASIC {
	return topology.HeadroomASIC{Name: "spectrum", CellSize: cell, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8,
		PeerResponseKB: 3.8, LosslessMTU: 1024, SmallPacketPercent: 100}
}

// The host NIC at the other end states its own cable length (mlnx_qos Cable len): a shorter
// one than the switch's may leave the NIC short, a longer one must be covered by the xoff.
func TestSwitchHeadroomAgainstTheHostsCableLength(t *testing.T) {
	e := src("show runningconfiguration all")
	for _, tc := range []struct {
		name        string
		switchM     int
		nicM        int
		status      Status
		message     string
		remediation string
	}{
		{"same cable", 40, 40, Pass, "", ""},
		{"NIC left at the mlx5 default 7 m", 40, 7, Warn, "the switch sizes for 40 m (CABLE_LENGTH), gpu01:ens1f0np0's NIC for 7 m", "mlnx_qos -i ens1f0np0 --cable_len=40"},
		{"NIC told longer, covered", 5, 40, Pass, "xoff also covers 40 m", ""},
		{"NIC told longer, not covered", 40, 300, Warn, "if the NIC is right, xoff is 71680 B short of the 163840 B a 300 m cable needs", "CABLE_LENGTH Ethernet1/1 300m"},
		{"NIC does not say", 40, 0, Pass, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.Headroom = topology.Known(sonicHeadroom(tc.switchM, 92160), e)
			snap := switchSnap(p)
			q := snap.Devices[0].Host.Ports[0].QoS
			q.Value.CableLenM = tc.nicM
			snap.Devices[0].Host.Ports[0].QoS = q
			r := swResults(snap, Options{})["SW-HEADROOM leaf1:Ethernet1/1"]
			if r.Status != tc.status || !strings.Contains(r.Message, tc.message) || !strings.Contains(r.Remediation, tc.remediation) {
				t.Fatalf("got %s %q (fix %q), want %s %q", r.Status, r.Message, r.Remediation, tc.status, tc.message)
			}
			if tc.message == "" && r.Message != "" {
				t.Errorf("no disagreement to note, got %q", r.Message)
			}
			if r.Status == Warn && (r.Evidence == nil || !strings.Contains(r.Evidence.Command, "gpu01:ens1f0np0: mlnx_qos")) {
				t.Errorf("the evidence must show both ends: %+v", r.Evidence)
			}
			if r.Status == Warn {
				// The finding reads as one on its own (the causes list shows only the actual), and
				// the fix touches only the end that claims the shorter cable.
				if want := fmt.Sprintf("cable %d m on the switch, %d m on gpu01:ens1f0np0", tc.switchM, tc.nicM); !strings.HasPrefix(r.Actual, want) {
					t.Errorf("actual %q does not start with %q", r.Actual, want)
				}
				if tc.nicM < tc.switchM && strings.Contains(r.Remediation, "CABLE_LENGTH") {
					t.Errorf("the switch already claims the longer cable, yet the fix changes it: %q", r.Remediation)
				}
				if tc.nicM > tc.switchM && strings.Contains(r.Remediation, "mlnx_qos") {
					t.Errorf("the NIC already claims the longer cable, yet the fix changes it: %q", r.Remediation)
				}
			}
		})
	}
}
