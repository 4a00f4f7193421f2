package cumuluscheck

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/cumulus"

	"github.com/roceaudit/roceaudit/lab/labtest"

	"github.com/google/go-cmp/cmp"

	cumuluscol "github.com/roceaudit/roceaudit/collectors/cumulus"
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

func collect(t *testing.T, sw *switchstate.Switch) *topology.SwitchFacts {
	t.Helper()
	return labcheck.Collect(t, cumuluscol.Descriptor(), cumulus.New(sw), sw)
}

// textOnly is a Cumulus switch whose NVUE refuses `-o json` (an option error, as a CLI gives
// for an option it does not have): the collector must read it from the text.
type textOnly struct{ *cumulus.Switch }

func (s textOnly) Exec(ctx context.Context, cmd string) (string, string, int) {
	if strings.HasSuffix(cmd, " -o json") {
		return "", "Error: Invalid option: -o\n", 2
	}
	return s.Switch.Exec(ctx, cmd)
}

// collectText collects sw from the text forms only.
func collectText(t *testing.T, sw *switchstate.Switch) *topology.SwitchFacts {
	t.Helper()
	return labcheck.Collect(t, cumuluscol.Descriptor(), textOnly{cumulus.New(sw)}, sw)
}

// unknown is a fact the collector cannot read; the comparison only checks that it says why.
func unknown[T any](cmd string) topology.Fact[T] {
	return topology.Unknown[T](topology.Evidence{Command: cmd, Error: "unreadable"})
}

// approxBytes is what a byte counter reads back as after NVUE humanised it: exact below 1 KB,
// else two decimals of KB, MB, GB or TB (1024-based).
func approxBytes(n int64) int64 {
	if n < 1024 {
		return n
	}
	unit := 1024.0
	for float64(n)/unit >= 1024 && unit < 1<<40 {
		unit *= 1024
	}
	shown, _ := strconv.ParseFloat(strconv.FormatFloat(float64(n)/unit, 'f', 2, 64), 64)
	return int64(math.Round(shown * unit))
}

// expectedJSONCounters are the collector's counter names with the state's exact values: the
// three per-class tables, each traffic class with its ECN marks (the port table's key is not
// known, so it is not read from JSON).
func expectedJSONCounters(p *switchstate.Port) map[string]int64 {
	m := map[string]int64{}
	for i := 0; i < 8; i++ {
		for _, f := range []string{"pg%d_rx_frames", "pg%d_rx_discard_bytes", "pg%d_rx_shared_discard_bytes",
			"queue%d_tx_packets", "queue%d_tx_bytes", "queue%d_drop_bytes", "queue%d_wred_drops", "queue%d_ecn_marked_packets",
			"pfc_rx_pause_prio%d", "pfc_rx_pause_duration_prio%d", "pfc_tx_pause_prio%d", "pfc_tx_pause_duration_prio%d"} {
			m[fmt.Sprintf(f, i)] = p.Counters[fmt.Sprintf(f, i)]
		}
	}
	return m
}

// expectedCounters are the collector's counter names with the state's values as the text
// shows them (bytes humanised); n/a cells (ingress ECN and multicast counts) are absent.
func expectedCounters(p *switchstate.Port) map[string]int64 {
	m := map[string]int64{}
	plain := []string{"pg%d_rx_frames", "queue%d_tx_packets", "queue%d_wred_drops", "pfc_rx_pause_prio%d",
		"pfc_rx_pause_duration_prio%d", "pfc_tx_pause_prio%d", "pfc_tx_pause_duration_prio%d"}
	bytes := []string{"pg%d_rx_discard_bytes", "pg%d_rx_shared_discard_bytes", "queue%d_tx_bytes", "queue%d_drop_bytes"}
	for i := 0; i < 8; i++ {
		for _, f := range plain {
			m[fmt.Sprintf(f, i)] = p.Counters[fmt.Sprintf(f, i)]
		}
		for _, f := range bytes {
			m[fmt.Sprintf(f, i)] = approxBytes(p.Counters[fmt.Sprintf(f, i)])
		}
	}
	m["ecn_marked_packets_tx"] = p.Counters["ecn_marked_packets_tx"]
	m["mc_buffer_discards_tx"] = p.Counters["mc_buffer_discards_tx"]
	m["pause_frames_rx"], m["pause_frames_tx"] = p.Counters["rx_pause"], p.Counters["tx_pause"]
	labcheck.Traffic(p, true, m)
	m["rx_bytes"], m["tx_bytes"] = approxBytes(m["rx_bytes"]), approxBytes(m["tx_bytes"])
	return m
}

// expectedPort is what the Cumulus collector must report for a port of the state, written
// from Cumulus semantics rather than from the renderer. In both regimes: the watchdog is on
// for every priority or none, DSCP classifies to a switch priority, ECN and scheduling are per
// traffic class. RoCE mode trusts pcp,dscp, maps switch priorities 3 and 6 to their own
// classes and the rest to class 0 (so only classes 0, 3 and 6 are scheduled) and reports its
// reserved pool; the generic profiles map switch priority n to class n, trust l3 or l2 (then
// no DSCP map), and report no lossless buffer while PFC is on.
func expectedPort(p *switchstate.Port, roce, asJSON bool) *topology.SwitchPort {
	cmd := func(suffix string) string { return "nv show interface " + p.Name + " " + suffix }
	var pfcSet [8]bool
	rxOn, txOn, wd := false, false, false
	for i := range pfcSet {
		pfcSet[i] = p.PFCRX[i] || p.PFCTX[i]
		rxOn, txOn, wd = rxOn || p.PFCRX[i], txOn || p.PFCTX[i], wd || p.Watchdog[i]
	}
	pfc := topology.SwitchPFC{RX: []int{}, TX: []int{}}
	if rxOn {
		pfc.RX = labcheck.Members(pfcSet)
	}
	if txOn {
		pfc.TX = labcheck.Members(pfcSet)
	}
	dscp := map[int]int{}
	for d, sp := range p.DSCPToTC {
		dscp[d] = sp
	}
	sched := func(tc int) string {
		if p.Strict[tc] {
			return "strict"
		}
		return "dwrr"
	}
	speed := labcheck.Known(float64(p.Speed), cmd("link"))
	if !p.Up {
		speed = unknown[float64](cmd("link")) // NVUE shows no operational speed on a link that is down
	}
	out := &topology.SwitchPort{
		Name:        p.Name,
		Speed:       speed,
		MTU:         labcheck.Known(topology.MTU{Configured: p.MTU, Kind: "frame", Normalized: p.MTU}, cmd("link")),
		PFCWatchdog: labcheck.Known(labcheck.PerQueue(func(int) bool { return wd }), cmd("qos pfc-watchdog")),
		// the timers are switch-wide and not read: unsupported, with the reason
		WatchdogTimers: labcheck.Known(topology.WatchdogTimers{}, cmd("qos pfc-watchdog")),
		Pause:          labcheck.Known(topology.Pause{RX: p.PauseRX, TX: p.PauseTX}, cmd("qos link-pause")),
		DCBX:           labcheck.Known(topology.DCBX{Mode: "static"}, cumuluscol.CmdRoCE),
		// no buffer sizes on this platform: unsupported, with the reason
		Headroom: labcheck.Known(topology.Headroom{}, cumuluscol.CmdRoCE),
		ECNOrder: labcheck.Known(topology.ECNOrder{}, cumuluscol.CmdRoCE),
		Counters: labcheck.Known(expectedCounters(p), cmd("counters qos")+" + "+cmd("link stats")),
	}
	if asJSON {
		out.Counters = labcheck.Known(labcheck.Traffic(p, true, expectedJSONCounters(p)), cmd("counters qos -o json")+" + "+cmd("link stats -o json"))
	}
	if roce {
		status := cmd("qos roce status")
		out.Trust = labcheck.Known("both", status)
		out.DSCPToTC = labcheck.Known(dscp, status)
		out.TCToQueue = labcheck.Known(map[int]int{0: 0, 1: 0, 2: 0, 3: 3, 4: 0, 5: 0, 6: 6, 7: 0}, status)
		out.PFC = labcheck.Known(pfc, status)
		out.ECN = labcheck.Known(labcheck.PerQueue(func(tc int) bool { return p.ECN[tc] }), status)
		out.Scheduler = labcheck.Known(map[int]string{0: sched(0), 3: sched(3), 6: sched(6)}, status)
		out.Buffer = labcheck.Known(topology.Buffer{LosslessPGs: labcheck.Members(p.Lossless), Profile: "roce-reserved-ingress"}, status)
		return out
	}
	trust := "dscp"
	if !p.TrustDSCP {
		trust, dscp = "pcp", map[int]int{}
	}
	out.Trust = labcheck.Known(trust, cmd("qos mapping"))
	out.DSCPToTC = labcheck.Known(dscp, cmd("qos mapping"))
	out.TCToQueue = labcheck.Known(labcheck.PerQueue(func(sp int) int { return sp }), cmd("qos egress-queue-mapping"))
	out.PFC = labcheck.Known(pfc, cmd("qos pfc"))
	out.ECN = labcheck.Known(labcheck.PerQueue(func(tc int) bool { return p.ECN[tc] }), cmd("qos congestion-control"))
	out.Scheduler = labcheck.Known(labcheck.PerQueue(sched), cmd("qos egress-scheduler"))
	out.Buffer = labcheck.Known(topology.Buffer{LosslessPGs: []int{}}, cmd("qos pfc"))
	if rxOn || txOn {
		out.Buffer = unknown[topology.Buffer](cumuluscol.CmdRoCE)
	}
	return out
}

// expectedLLDP is every neighbour on a port whose link is up, as `nv show interface lldp`
// lists it (system name and port only).
func expectedLLDP(sw *switchstate.Switch) []topology.LLDPNeighbor {
	return labcheck.ExpectedLLDP(sw, func(p *switchstate.Port, n *switchstate.Neighbor) topology.LLDPNeighbor {
		return topology.LLDPNeighbor{LocalPort: p.Name, SystemName: n.SystemName, PortID: n.PortID}
	})
}

// factOpts compare evidence by command only: excerpts are the collector's, and an unreadable
// fact only has to say why.
var factOpts = labcheck.FactOpts(cmp.Comparer(func(a, b topology.Evidence) bool {
	return a.Command == b.Command && (a.Error == "") == (b.Error == "")
}))

// TestCollectorRoundTrip renders every collector command from the state, runs the real
// Cumulus collector on the answers and checks that it recovers the state in both regimes: the
// lab cannot drift from the parsers.
func TestCollectorRoundTrip(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			if err := cumulus.Validate(sc.sw); err != nil {
				t.Fatalf("the scenario is not expressible on Cumulus: %v", err)
			}
			if roce, why := cumulus.Regime(sc.sw); roce != sc.roce {
				t.Fatalf("regime RoCE=%v (%s), want RoCE=%v", roce, why, sc.roce)
			}
			for _, form := range []struct {
				name    string
				asJSON  bool
				collect func(*testing.T, *switchstate.Switch) *topology.SwitchFacts
				lldp    string
			}{{"json", true, collect, cumuluscol.CmdInterfaceLLDP + " -o json"}, {"text", false, collectText, cumuluscol.CmdInterfaceLLDP}} {
				got := form.collect(t, sc.sw)
				want := &topology.SwitchFacts{
					NOS:  "Cumulus Linux " + sc.sw.Version,
					LLDP: labcheck.Known(expectedLLDP(sc.sw), form.lldp),
				}
				for _, p := range sc.sw.SortedPorts() {
					want.Ports = append(want.Ports, expectedPort(p, sc.roce, form.asJSON))
				}
				if d := cmp.Diff(want, got, factOpts); d != "" {
					t.Errorf("%s: collected facts differ from the state (-want +got):\n%s", form.name, d)
				}
				for _, p := range got.Ports {
					if p.DCBX.Status != topology.FactUnsupported {
						t.Errorf("%s: %s: DCBX is not marked not supported: %s", form.name, p.Name, p.DCBX.Status)
					}
				}
			}
		})
	}
}

// TestFaultShows checks the lab-fabric fault on leaf2 where SW-MTU looks, and that it leaves
// the switch in RoCE mode, independently of expectedPort.
func TestFaultShows(t *testing.T) {
	sw := leaf2()
	sw.Port("swp2").MTU = 9000
	facts := collect(t, sw)
	if got := facts.Port("swp2").MTU.Value.Normalized; got != 9000 {
		t.Errorf("swp2 MTU %d, want 9000", got)
	}
	if got := facts.Port("swp1").MTU.Value.Normalized; got != 9216 {
		t.Errorf("swp1 MTU %d, want 9216", got)
	}
	for _, p := range facts.Ports {
		if !strings.Contains(p.Trust.Source.Command, "qos roce status") || p.DSCPToTC.Value[26] != 3 || p.DSCPToTC.Value[48] != 6 ||
			!p.ECN.Value[3] || p.Scheduler.Value[6] != "strict" || fmt.Sprint(p.PFC.Value.RX, p.Buffer.Value.LosslessPGs) != "[3] [3]" {
			t.Errorf("%s is not on the RoCE lossless profile: %+v", p.Name, p)
		}
	}
}

// TestRegimeFollowsThePorts: one port RoCE mode cannot express moves the whole switch to the
// generic profiles, and says which port.
func TestRegimeFollowsThePorts(t *testing.T) {
	sw := leaf2()
	if roce, why := cumulus.Regime(sw); !roce {
		t.Fatalf("healthy leaf2 not in RoCE mode: %s", why)
	}
	sw.Port("swp3").Strict[6] = false
	roce, why := cumulus.Regime(sw)
	if roce || !strings.HasPrefix(why, "swp3: strict queues -") {
		t.Errorf("regime RoCE=%v, %q; want generic because of swp3", roce, why)
	}
	sw = leaf2()
	sw.Port("swp4").ECN[1] = true
	if roce, why := cumulus.Regime(sw); roce || !strings.HasPrefix(why, "swp4: ECN on traffic classes 1,3") {
		t.Errorf("regime RoCE=%v, %q; want generic because swp4 marks ECN on other classes", roce, why)
	}
}

func TestValidateNamesWhatCumulusCannotShow(t *testing.T) {
	sw := leaf2()
	sw.Port("swp1").PFCTX[4] = true
	sw.Port("swp2").Lossless[3] = false
	sw.Port("swp3").Watchdog[5] = true
	sw.Port("swp4").PauseRX = true
	sw.Port("swp51").DCBX = true
	sw.Port("swp52").MTU = 9600
	labtest.ExpectProblems(t, cumulus.Validate(sw), "asymmetric PFC, a lossy PFC priority, a partial watchdog, pause with PFC, DCBX and MTU 9600",
		"swp1: PFC rx 3, tx 3,4", "swp2: lossless priority groups -", "swp3: watchdog on 3,5",
		"swp4: link pause and PFC", "swp51: DCBX", "swp52: MTU 9600")
}

// A host that stock lldpd announces by MAC shows in `nv show interface lldp` with that MAC as
// its Remote Port, as NVIDIA's own sample does; literal values, independent of expectedLLDP.
func TestHostNeighbourByMAC(t *testing.T) {
	var got topology.LLDPNeighbor
	for _, n := range collect(t, leaf2()).LLDP.Value {
		if n.LocalPort == "swp3" {
			got = n
		}
	}
	if want := (topology.LLDPNeighbor{LocalPort: "swp3", SystemName: "gpu03", PortID: "0c:42:a1:6b:03:4d"}); got != want {
		t.Errorf("swp3 neighbour %+v, want %+v", got, want)
	}
}
