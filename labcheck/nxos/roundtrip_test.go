package nxoscheck

import (
	"fmt"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/lab/nxos"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/google/go-cmp/cmp"

	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// switchPFC is the switch-wide pfc-cos list; Validate holds, so every PFC port has it.
func switchPFC(sw *switchstate.Switch) []int {
	for _, p := range sw.Ports {
		if prios := p.PFCPriorities(); len(prios) > 0 {
			return prios
		}
	}
	return nil
}

// expectedPort is what the NX-OS collector must report for a port of the state, written
// from NX-OS semantics rather than from the renderer: PFC priorities are the switch's
// pfc-cos unless the port's mode is off, mode auto is DCBX, the watchdog is one switch per
// port, lossless classes are the switch's no-drop classes, and a port that trusts CoS reads
// every DSCP as qos-group 0.
func expectedPort(sw *switchstate.Switch, p *switchstate.Port) *topology.SwitchPort {
	mode, dcbx := "on", "static"
	switch {
	case p.PFCAuto || p.DCBX:
		mode, dcbx = "auto", "dcbx"
	case !slices.Contains(p.PFCRX[:], true) && !slices.Contains(p.PFCTX[:], true):
		mode = "off"
	}
	prios := []int{}
	if mode != "off" {
		prios = switchPFC(sw)
	}
	trust, dscp := "pcp", map[int]int{}
	for d := 0; d < 64; d++ {
		dscp[d] = 0
		if p.TrustDSCP {
			trust, dscp[d] = "dscp", p.DSCPToTC[d]
		}
	}
	// A mode auto port is decided by `show interface priority-flow-control`: PFC negotiated
	// (on the pfc-cos) when its link is up with a neighbour, off otherwise.
	pfc, pfcCmd := topology.SwitchPFC{RX: prios, TX: prios, Mode: mode}, nxoscol.CmdQoSConfig
	if mode == "auto" {
		pfc.Oper, pfcCmd = "on", nxoscol.CmdQoSConfig+" + "+nxoscol.CmdPFCOper
		if !p.Up || p.Neighbor == nil {
			pfc.Oper, pfc.RX, pfc.TX = "off", []int{}, []int{}
		}
	}
	wd := slices.Contains(p.Watchdog[:], true)
	// A port that is down prints eth_speed "auto-speed": its speed is unknown.
	speed := labcheck.Known(float64(p.Speed), nxoscol.CmdInterface)
	if !p.Up {
		speed = topology.Unknown[float64](topology.Evidence{Command: nxoscol.CmdInterface,
			Error: p.Name + ` shows no speed: "eth_speed": "auto-speed" (state "down")`})
	}
	return &topology.SwitchPort{
		Name:        p.Name,
		Speed:       speed,
		MTU:         labcheck.Known(topology.MTU{Configured: p.MTU, Kind: "frame", Normalized: p.MTU}, nxoscol.CmdInterface),
		Trust:       labcheck.Known(trust, nxoscol.CmdQoSConfig),
		DSCPToTC:    labcheck.Known(dscp, nxoscol.CmdQoSConfig),
		TCToQueue:   labcheck.Known(labcheck.PerQueue(func(q int) int { return q }), nxoscol.CmdQoSConfig),
		PFC:         labcheck.Known(pfc, pfcCmd),
		PFCWatchdog: labcheck.Known(labcheck.PerQueue(func(int) bool { return wd }), nxoscol.CmdQoSConfig),
		// the timers are not in the configuration: unsupported, with the reason
		WatchdogTimers: labcheck.Known(topology.WatchdogTimers{}, nxoscol.CmdQoSConfig),
		Pause:          labcheck.Known(topology.Pause{RX: p.PauseRX, TX: p.PauseTX}, nxoscol.CmdInterface),
		ECN:            labcheck.Known(labcheck.PerQueue(func(q int) bool { return p.ECN[q] }), nxoscol.CmdQoSConfig),
		Scheduler: labcheck.Known(labcheck.PerQueue(func(q int) string {
			if p.Strict[q] {
				return "strict"
			}
			return "dwrr"
		}), nxoscol.CmdQoSConfig),
		DCBX:   labcheck.Known(topology.DCBX{Mode: dcbx}, pfcCmd),
		Buffer: labcheck.Known(topology.Buffer{LosslessPGs: switchPFC(sw), Profile: nxos.NetworkPolicy}, nxoscol.CmdQoSConfig),
		// no buffer sizes on this platform: unsupported, with the reason
		Headroom: labcheck.Known(topology.Headroom{}, nxoscol.CmdQoSConfig),
		ECNOrder: labcheck.Known(topology.ECNOrder{}, nxoscol.CmdQoSConfig),
		Counters: labcheck.Known(expectedCounters(p), nxoscol.CmdInterface+" + "+nxoscol.CmdQueuingJSON),
	}
}

// expectedCounters are the port's pause counts and, per qos-group g (the state's queue g),
// its unicast egress statistics: transmitted, dropped (WRED/AFD & tail), dropped by the PFC
// watchdog and ECN-marked.
func expectedCounters(p *switchstate.Port) map[string]int64 {
	c := map[string]int64{"rx_pause": p.Counters["rx_pause"], "tx_pause": p.Counters["tx_pause"]}
	for g := 0; g < 8; g++ {
		for _, n := range []string{"tx_packets", "tx_bytes", "drops", "drop_bytes", "watchdog_drops", "ecn_marked_packets"} {
			k := fmt.Sprintf("queue%d_%s", g, n)
			c[k] = p.Counters[k]
		}
	}
	return labcheck.Traffic(p, true, c)
}

// expectedLLDP is every neighbour on a port whose link is up, with the MACs (the chassis, and
// a host's port ID) as NX-OS spells them.
func expectedLLDP(sw *switchstate.Switch) []topology.LLDPNeighbor {
	return labcheck.ExpectedLLDP(sw, func(p *switchstate.Port, n *switchstate.Neighbor) topology.LLDPNeighbor {
		return topology.LLDPNeighbor{LocalPort: p.Name, SystemName: n.SystemName, PortID: nosfmt.DottedMAC(n.PortID),
			PortDescr: n.PortDescr, ChassisID: nosfmt.DottedMAC(n.ChassisID), MgmtAddress: n.MgmtIP}
	})
}

func collect(t *testing.T, sw *switchstate.Switch) *topology.SwitchFacts {
	t.Helper()
	return labcheck.Collect(t, nxoscol.Descriptor(), nxos.New(sw), sw)
}

// TestCollectorRoundTrip renders every collector command from the state, runs the real
// NX-OS collector on the answers and checks that it recovers the state: the lab cannot drift
// from the parsers.
func TestCollectorRoundTrip(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			if err := nxos.Validate(sc.sw); err != nil {
				t.Fatalf("the scenario is not expressible on NX-OS: %v", err)
			}
			want := &topology.SwitchFacts{
				NOS:  "Cisco NX-OS " + nxos.DefaultVersion + " (Nexus9000 C9336C-FX2 Chassis)",
				LLDP: labcheck.Known(expectedLLDP(sc.sw), nxoscol.CmdLLDP),
			}
			for _, p := range sc.sw.SortedPorts() {
				want.Ports = append(want.Ports, expectedPort(sc.sw, p))
			}
			if d := cmp.Diff(want, collect(t, sc.sw), labcheck.FactOpts(labcheck.IgnoreExcerpts)); d != "" {
				t.Errorf("collected facts differ from the state (-want +got):\n%s", d)
			}
		})
	}
}

// TestFaultsShow checks that each lab-fabric fault is visible where its check looks.
func TestFaultsShow(t *testing.T) {
	sw := nxos.Leaf4()
	sw.Port("Ethernet1/2").Watchdog[3] = false
	sw.Port("Ethernet1/3").PFCAuto, sw.Port("Ethernet1/3").DCBX = true, true
	facts := collect(t, sw)
	if facts.Port("Ethernet1/2").PFCWatchdog.Value[3] || !facts.Port("Ethernet1/1").PFCWatchdog.Value[3] {
		t.Errorf("watchdog on priority 3: Ethernet1/1 %v, Ethernet1/2 %v; want on, off",
			facts.Port("Ethernet1/1").PFCWatchdog.Value[3], facts.Port("Ethernet1/2").PFCWatchdog.Value[3])
	}
	if d := facts.Port("Ethernet1/3").DCBX.Value; d.Mode != "dcbx" || facts.Port("Ethernet1/3").PFC.Value.Mode != "auto" {
		t.Errorf("Ethernet1/3 DCBX %+v, PFC %+v; want dcbx, mode auto", d, facts.Port("Ethernet1/3").PFC.Value)
	}
}

func TestValidateNamesWhatNXOSCannotShow(t *testing.T) {
	sw := nxos.Leaf4()
	sw.Port("Ethernet1/1").PFCRX[4], sw.Port("Ethernet1/1").PFCTX[4] = true, true
	sw.Port("Ethernet1/2").PFCTX[3] = false
	sw.Port("Ethernet1/3").PFCAuto = true
	sw.Port("Ethernet1/4").Lossless[3] = false
	labtest.ExpectProblems(t, nxos.Validate(sw), "per-port PFC priorities, asymmetric PFC, PFCAuto without DCBX and per-port lossless PGs",
		"Ethernet1/1: PFC on [3 4]", "Ethernet1/2: asymmetric PFC", "Ethernet1/3: PFCAuto true but DCBX false", "Ethernet1/4: lossless PGs []")
	if err := nxos.Validate(nxos.Spine1()); err != nil {
		t.Errorf("Validate refused the healthy spine1: %v", err)
	}
}

// A host that stock lldpd announces by MAC is collected with the MAC dotted, as NX-OS prints
// a "Mac Address" port ID, and the netdev as its description; literal values, independent of
// expectedLLDP.
func TestHostNeighbourByMAC(t *testing.T) {
	var got topology.LLDPNeighbor
	for _, n := range collect(t, nxos.Leaf4()).LLDP.Value {
		if n.LocalPort == "Ethernet1/3" {
			got = n
		}
	}
	want := topology.LLDPNeighbor{LocalPort: "Ethernet1/3", SystemName: "gpu07", PortID: "0c42.a16b.074d", PortDescr: "ens1f1np1",
		ChassisID: "0c42.a16b.074d", MgmtAddress: "192.168.100.7"}
	if got != want {
		t.Errorf("Ethernet1/3 neighbour %+v, want %+v", got, want)
	}
}
