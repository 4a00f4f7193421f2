package eoscheck

import (
	"fmt"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/lab/eos"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/google/go-cmp/cmp"

	eoscol "github.com/roceaudit/roceaudit/collectors/eos"
	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// expectedPort is what the EOS collector must report for a port of the state, written from
// EOS semantics rather than from the renderer: PFC is symmetric (the union of rx and tx),
// the watchdog is one switch for the whole port, lossless buffers follow the no-drop
// priorities, queues are strict from the lowest strict queue up and round-robin below.
func expectedPort(sw *switchstate.Switch, p *switchstate.Port, inline bool) *topology.SwitchPort {
	norm := p.MTU
	if p.MTU >= 9214 {
		norm = 9216
	}
	var prios []int
	for prio := 0; prio < 8; prio++ {
		if p.PFCRX[prio] || p.PFCTX[prio] {
			prios = append(prios, prio)
		}
	}
	wd := slices.Contains(p.Watchdog[:], true)
	lowestStrict := slices.Index(p.Strict[:], true)
	trust, dcbx, profile := "pcp", "static", eos.Profile
	if p.TrustDSCP {
		trust = "dscp"
	}
	if p.DCBX {
		dcbx = "dcbx"
	}
	if inline {
		profile = ""
	}
	global := sw.Ports[0].DSCPToTC // Validate holds: every port has the same map
	var pfcRX, pfcTX int64
	for prio := 0; prio < 8; prio++ {
		pfcRX += p.Counters[pfcName("rx", prio)]
		pfcTX += p.Counters[pfcName("tx", prio)]
	}
	// A port that is not connected shows bandwidth 0: its speed is unknown.
	speed := labcheck.Known(float64(p.Speed), eoscol.CmdInterfaces)
	if !p.Up {
		speed = topology.Unknown[float64](topology.Evidence{Command: eoscol.CmdInterfaces,
			Error: p.Name + ` reports no "bandwidth" (interfaceStatus "notconnect")`})
	}
	return &topology.SwitchPort{
		Name:           p.Name,
		Speed:          speed,
		MTU:            labcheck.Known(topology.MTU{Configured: p.MTU, Kind: "ip", Normalized: norm}, eoscol.CmdInterfaces),
		Trust:          labcheck.Known(trust, eoscol.CmdRunningConfig),
		DSCPToTC:       labcheck.Known(perDSCP(global), eoscol.CmdRunningConfig),
		TCToQueue:      labcheck.Known(labcheck.PerQueue(func(q int) int { return q }), eoscol.CmdRunningConfig),
		PFC:            labcheck.Known(topology.SwitchPFC{RX: prios, TX: prios}, eoscol.CmdRunningConfig),
		PFCWatchdog:    labcheck.Known(labcheck.PerQueue(func(int) bool { return wd }), eoscol.CmdRunningConfig),
		WatchdogTimers: labcheck.Known(expectedTimers(sw), eoscol.CmdRunningConfig),
		Pause:          labcheck.Known(topology.Pause{RX: p.PauseRX, TX: p.PauseTX}, eoscol.CmdFlowcontrol),
		ECN:            labcheck.Known(labcheck.PerQueue(func(q int) bool { return p.ECN[q] }), eoscol.CmdRunningConfig),
		Scheduler: labcheck.Known(labcheck.PerQueue(func(q int) string {
			if lowestStrict >= 0 && q >= lowestStrict {
				return "strict"
			}
			return "wrr"
		}), eoscol.CmdRunningConfig),
		DCBX:   labcheck.Known(topology.DCBX{Mode: dcbx}, eoscol.CmdRunningConfig),
		Buffer: labcheck.Known(topology.Buffer{LosslessPGs: prios, Profile: profile}, eoscol.CmdRunningConfig),
		// no buffer sizes on this platform: unsupported, with the reason
		Headroom: labcheck.Known(topology.Headroom{}, eoscol.CmdRunningConfig),
		ECNOrder: labcheck.Known(topology.ECNOrder{}, eoscol.CmdRunningConfig),
		Counters: labcheck.Known(labcheck.Traffic(p, true, map[string]int64{
			"rx_pause": p.Counters["rx_pause"], "tx_pause": p.Counters["tx_pause"],
			"pfc_rx_frames": pfcRX, "pfc_tx_frames": pfcTX,
		}), eoscol.CmdInterfaces),
	}
}

func pfcName(dir string, prio int) string {
	return fmt.Sprintf("pfc_%s_pause_prio%d", dir, prio)
}

func perDSCP(m [64]int) map[int]int {
	out := map[int]int{}
	for d, tc := range m {
		out[d] = tc
	}
	return out
}

// expectedLLDP is every neighbour on a port whose link is up, with the MACs (the chassis, and
// a host's port ID) as EOS spells them.
func expectedLLDP(sw *switchstate.Switch) []topology.LLDPNeighbor {
	return labcheck.ExpectedLLDP(sw, func(p *switchstate.Port, n *switchstate.Neighbor) topology.LLDPNeighbor {
		return topology.LLDPNeighbor{LocalPort: p.Name, SystemName: n.SystemName, PortID: nosfmt.DottedMAC(n.PortID),
			PortDescr: n.PortDescr, ChassisID: nosfmt.DottedMAC(n.ChassisID), MgmtAddress: n.MgmtIP}
	})
}

// TestCollectorRoundTrip renders every collector command from the state, runs the real EOS
// collector on the answers and checks that it recovers the state: the lab cannot drift from
// the parsers.
func TestCollectorRoundTrip(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			if err := eos.Validate(sc.sw); err != nil {
				t.Fatalf("the scenario is not expressible on EOS: %v", err)
			}
			got := labcheck.Collect(t, eoscol.Descriptor(), eos.New(sc.sw), sc.sw)
			want := &topology.SwitchFacts{
				NOS:  "Arista EOS " + eos.DefaultVersion + " (" + eos.DefaultModel + ")",
				LLDP: labcheck.Known(expectedLLDP(sc.sw), eoscol.CmdLLDP),
			}
			for _, p := range sc.sw.SortedPorts() {
				want.Ports = append(want.Ports, expectedPort(sc.sw, p, slices.Contains(sc.inline, p.Name)))
			}
			if d := cmp.Diff(want, got, labcheck.FactOpts(labcheck.IgnoreExcerpts)); d != "" {
				t.Errorf("collected facts differ from the state (-want +got):\n%s", d)
			}
			for _, p := range sc.sw.SortedPorts() {
				if d := cmp.Diff(expectedInferred(p), inferredFacts(got.Port(p.Name))); d != "" {
					t.Errorf("%s: facts marked inferred (-want +got):\n%s", p.Name, d)
				}
			}
		})
	}
}

// TestFaultsShow checks that each lab-fabric fault is visible where its check looks, so a
// scenario cannot pass by accident.
func TestFaultsShow(t *testing.T) {
	sw := eos.Leaf3()
	sw.Port("Ethernet2").TrustDSCP = false
	sw.Port("Ethernet3").PauseRX = true
	facts := labcheck.Collect(t, eoscol.Descriptor(), eos.New(sw), sw)
	if got := facts.Port("Ethernet2").Trust.Value; got != "pcp" {
		t.Errorf("Ethernet2 trust = %q, want pcp", got)
	}
	if got := facts.Port("Ethernet3").Pause.Value; !got.RX || got.TX {
		t.Errorf("Ethernet3 pause = %+v, want RX only", got)
	}
	if got := facts.Port("Ethernet1").Trust.Value; got != "dscp" {
		t.Errorf("Ethernet1 trust = %q, want dscp", got)
	}
}

func TestValidateNamesWhatEOSCannotShow(t *testing.T) {
	sw := eos.Leaf3()
	sw.Port("Ethernet1").DSCPToTC[26] = 1
	sw.Port("Ethernet2").PFCTX[3] = false
	sw.Port("Ethernet3").PFCAuto = true
	sw.Port("Ethernet4").Lossless[4] = true
	labtest.ExpectProblems(t, eos.Validate(sw), "a per-port DSCP map, asymmetric PFC, PFCAuto and extra lossless PGs",
		"Ethernet1: DSCP map", "Ethernet2: asymmetric PFC", "Ethernet3: PFCAuto", "Ethernet4: lossless PGs [3 4]")
	if err := eos.Validate(eos.Leaf3()); err != nil {
		t.Errorf("Validate refused the healthy leaf3: %v", err)
	}
}

// A host that stock lldpd announces by MAC is collected with the MAC dotted, as EOS prints a
// macAddress port ID, and the netdev as its description; literal values, independent of
// expectedLLDP.
func TestHostNeighbourByMAC(t *testing.T) {
	var got topology.LLDPNeighbor
	for _, n := range labcheck.Collect(t, eoscol.Descriptor(), eos.New(eos.Leaf3()), eos.Leaf3()).LLDP.Value {
		if n.LocalPort == "Ethernet2" {
			got = n
		}
	}
	want := topology.LLDPNeighbor{LocalPort: "Ethernet2", SystemName: "gpu06", PortID: "0c42.a16b.064c", PortDescr: "ens1f0np0",
		ChassisID: "0c42.a16b.064c", MgmtAddress: "192.168.100.6"}
	if got != want {
		t.Errorf("Ethernet2 neighbour %+v, want %+v", got, want)
	}
}

// expectedInferred are the facts the rendered running-config leaves to EOS defaults: it
// states the DSCP map, trust, PFC, ECN and every tx-queue's scheduling, but no traffic-class
// to tx-queue map, and no watchdog line on a port without one.
func expectedInferred(p *switchstate.Port) []string {
	out := []string{"TCToQueue"}
	if !slices.Contains(p.Watchdog[:], true) {
		out = append(out, "PFCWatchdog")
	}
	return out
}

// inferredFacts names the facts of p inferred from an EOS default.
func inferredFacts(p *topology.SwitchPort) []string {
	var out []string
	for _, f := range []struct {
		name   string
		status topology.FactStatus
	}{
		{"Trust", p.Trust.Status}, {"DSCPToTC", p.DSCPToTC.Status}, {"TCToQueue", p.TCToQueue.Status},
		{"PFC", p.PFC.Status}, {"PFCWatchdog", p.PFCWatchdog.Status}, {"ECN", p.ECN.Status},
		{"Scheduler", p.Scheduler.Status}, {"DCBX", p.DCBX.Status}, {"Buffer", p.Buffer.Status},
	} {
		if f.status == topology.FactInferred {
			out = append(out, f.name)
		}
	}
	return out
}
