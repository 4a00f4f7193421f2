package soniccheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/roceaudit/roceaudit/lab/sonic"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	soniccol "github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

func collect(t *testing.T, sw *switchstate.Switch) *topology.SwitchFacts {
	t.Helper()
	return labcheck.Collect(t, soniccol.Descriptor(), sonic.New(sw), sw)
}

// expectedPort is what the SONiC collector must report for a port of the state, written from
// SONiC semantics rather than from the renderer: a port that does not trust DSCP binds a dot1p
// map and no DSCP map; PFC with rx on every priority and tx on fewer is pfc_asym on; queues are
// TC n -> queue n; every queue binds a scheduler; 802.3x pause and DCBX are not supported; the
// speed is the configured one (CONFIG_DB), so a port that is down still has it; the alias is
// the front-panel name etpK of EthernetN, K = N/4+1, which lab/host_lldp.go announces too.
func expectedPort(p *switchstate.Port) *topology.SwitchPort {
	trust, dscp := "pcp", map[int]int{}
	if p.TrustDSCP {
		trust = "dscp"
		for d, tc := range p.DSCPToTC {
			dscp[d] = tc
		}
	}
	rx, tx := labcheck.Members(p.PFCRX), labcheck.Members(p.PFCTX)
	if fmt.Sprint(rx) != fmt.Sprint(tx) && len(rx) < 8 {
		panic("expectedPort: the state is not expressible on SONiC (Validate it first)")
	}
	var pgs []int
	profile := ""
	for pg, on := range p.Lossless {
		if on {
			pgs = append(pgs, pg)
			profile = fmt.Sprintf("pg_lossless_%d_%dm_profile", p.Speed*1000, p.Headroom.CableM)
		}
	}
	counters := map[string]int64{}
	for i := 0; i < 8; i++ {
		for _, name := range []string{"pfc_rx_pause_prio%d", "pfc_tx_pause_prio%d", "queue%d_tx_packets", "queue%d_tx_bytes", "queue%d_drops", "queue%d_drop_bytes"} {
			counters[fmt.Sprintf(name, i)] = p.Counters[fmt.Sprintf(name, i)]
		}
	}
	cfg := soniccol.CmdRunningConfig
	n, _ := strconv.Atoi(strings.TrimPrefix(p.Name, "Ethernet"))
	return &topology.SwitchPort{
		Name:           p.Name,
		Aliases:        []string{fmt.Sprintf("etp%d", n/4+1)},
		Speed:          labcheck.Known(float64(p.Speed), cfg),
		MTU:            labcheck.Known(topology.MTU{Configured: p.MTU, Kind: "frame", Normalized: p.MTU}, cfg),
		Trust:          labcheck.Known(trust, cfg),
		DSCPToTC:       labcheck.Known(dscp, cfg),
		TCToQueue:      labcheck.Known(labcheck.PerQueue(func(q int) int { return q }), cfg),
		PFC:            labcheck.Known(topology.SwitchPFC{RX: rx, TX: tx}, cfg),
		PFCWatchdog:    labcheck.Known(labcheck.PerQueue(func(q int) bool { return p.Watchdog[q] }), cfg),
		WatchdogTimers: labcheck.Known(expectedTimers(p), cfg),
		Pause:          labcheck.Known(topology.Pause{}, cfg),
		ECN:            labcheck.Known(labcheck.PerQueue(func(q int) bool { return p.ECN[q] }), cfg),
		Scheduler: labcheck.Known(labcheck.PerQueue(func(q int) string {
			if p.Strict[q] {
				return "strict"
			}
			return "dwrr"
		}), cfg),
		DCBX:     labcheck.Known(topology.DCBX{Mode: "static"}, cfg),
		Buffer:   labcheck.Known(topology.Buffer{LosslessPGs: pgs, Profile: profile}, cfg),
		Headroom: labcheck.Known(expectedHeadroom(p, pgs, profile), cfg),
		ECNOrder: labcheck.Known(expectedECNOrder(p, pgs, profile), cfg),
		Counters: labcheck.Known(labcheck.Traffic(p, false, counters), soniccol.CmdPFCCounters+"; "+soniccol.CmdQueueCounters+"; "+soniccol.CmdInterfaceCounters),
	}
}

// expectedLLDP is every neighbour on a port whose link is up, as lldpshow lists it.
func expectedLLDP(sw *switchstate.Switch) []topology.LLDPNeighbor {
	return labcheck.ExpectedLLDP(sw, func(p *switchstate.Port, n *switchstate.Neighbor) topology.LLDPNeighbor {
		return topology.LLDPNeighbor{LocalPort: p.Name, SystemName: n.SystemName, PortID: n.PortID, PortDescr: n.PortDescr}
	})
}

// TestCollectorRoundTrip renders every collector command from the state, runs the real SONiC
// collector on the answers and checks that it recovers the state: the lab cannot drift from
// the parsers.
func TestCollectorRoundTrip(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			if err := sonic.Validate(sc.sw); err != nil {
				t.Fatalf("the scenario is not expressible on SONiC: %v", err)
			}
			got := collect(t, sc.sw)
			want := &topology.SwitchFacts{
				NOS:  fmt.Sprintf("%s (HwSKU %s)", sc.sw.Version, sc.sw.Model),
				LLDP: labcheck.Known(expectedLLDP(sc.sw), soniccol.CmdLLDP),
			}
			for _, p := range sc.sw.SortedPorts() {
				want.Ports = append(want.Ports, expectedPort(p))
			}
			// The bound map's name and the per-PG descriptions are the collector's wording, not state.
			if d := cmp.Diff(want, got, labcheck.FactOpts(labcheck.IgnoreExcerpts),
				cmpopts.IgnoreFields(topology.SwitchPort{}, "DSCPMap"), cmpopts.IgnoreFields(topology.Buffer{}, "PGs"),
				cmpopts.IgnoreFields(topology.ECNThreshold{}, "Profile")); d != "" {
				t.Errorf("collected facts differ from the state (-want +got):\n%s", d)
			}
			for _, p := range got.Ports {
				if p.Pause.Status != topology.FactUnsupported || p.DCBX.Status != topology.FactUnsupported {
					t.Errorf("%s: pause and DCBX are not marked not supported: %s, %s", p.Name, p.Pause.Status, p.DCBX.Status)
				}
			}
		})
	}
}

// TestFaultsShow checks each lab-fabric fault where its check looks, independently of
// expectedPort, so a scenario cannot pass by a mistake shared by the renderer and the test.
func TestFaultsShow(t *testing.T) {
	var leaf, spine *topology.SwitchFacts
	for _, sc := range scenarios() {
		switch sc.name {
		case "broken leaf1":
			leaf = collect(t, sc.sw)
		case "broken spine2":
			spine = collect(t, sc.sw)
		}
	}
	if got := leaf.Port("Ethernet4").DSCPToTC.Value[26]; got != 1 {
		t.Errorf("leaf1 Ethernet4 DSCP 26 -> TC %d, want 1", got)
	}
	if got := leaf.Port("Ethernet8").PFC.Value; fmt.Sprint(got.RX, got.TX) != "[3 4] [3 4]" {
		t.Errorf("leaf1 Ethernet8 PFC %+v, want 3,4 both ways", got)
	}
	if leaf.Port("Ethernet12").ECN.Value[3] || !leaf.Port("Ethernet8").ECN.Value[3] {
		t.Errorf("ECN on queue 3: Ethernet12 %v (want off), Ethernet8 %v (want on)",
			leaf.Port("Ethernet12").ECN.Value[3], leaf.Port("Ethernet8").ECN.Value[3])
	}
	if got := spine.Port("Ethernet0").Scheduler.Value[6]; got != "dwrr" {
		t.Errorf("spine2 Ethernet0 queue 6 %q, want dwrr", got)
	}
	if got := spine.Port("Ethernet4").Buffer.Value.LosslessPGs; len(got) != 0 {
		t.Errorf("spine2 Ethernet4 lossless PGs %v, want none", got)
	}
	for _, p := range leaf.Ports {
		if p.Name != "Ethernet4" && p.DSCPToTC.Value[26] != 3 {
			t.Errorf("leaf1 %s DSCP 26 -> TC %d, want 3", p.Name, p.DSCPToTC.Value[26])
		}
	}
}

func TestValidateNamesWhatSONiCCannotShow(t *testing.T) {
	sw := leaf1()
	sw.Port("Ethernet0").PFCTX[3] = false
	sw.Port("Ethernet4").Watchdog[5] = true
	sw.Port("Ethernet8").PauseRX = true
	sw.Port("Ethernet12").PFCAuto = true
	sw.Port("Ethernet48").MTU = 9600
	labtest.ExpectProblems(t, sonic.Validate(sw), "asymmetric PFC, a watchdog without PFC, pause, DCBX and MTU 9600",
		"Ethernet0: PFC rx 3, tx ", "Ethernet4: watchdog on 3,5", "Ethernet8: 802.3x pause",
		"Ethernet12: DCBX", "Ethernet48: MTU 9600")
}

// A host that stock lldpd announces by MAC is collected with that MAC as its port ID and the
// netdev as its description; the port's CONFIG_DB description and DEVICE_NEIGHBOR still name
// the netdev, not the MAC. Literal values, independent of expectedLLDP.
func TestHostNeighbourByMAC(t *testing.T) {
	sw := leaf1()
	var got topology.LLDPNeighbor
	for _, n := range collect(t, sw).LLDP.Value {
		if n.LocalPort == "Ethernet4" {
			got = n
		}
	}
	want := topology.LLDPNeighbor{LocalPort: "Ethernet4", SystemName: "gpu02", PortID: "0c:42:a1:6b:02:4c", PortDescr: "ens1f0np0"}
	if got != want {
		t.Errorf("Ethernet4 neighbour %+v, want %+v", got, want)
	}
	cfg, _, _ := sonic.New(sw).Exec(context.Background(), soniccol.CmdRunningConfig)
	for _, s := range []string{`"description": "gpu02:ens1f0np0"`, `"port": "ens1f0np0"`} {
		if !strings.Contains(cfg, s) {
			t.Errorf("running config lacks %s", s)
		}
	}
	if strings.Contains(cfg, "gpu02:0c:42") {
		t.Error("running config names a host port by its MAC")
	}
}
