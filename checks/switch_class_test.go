package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// dscpMap builds a full DSCP map: every DSCP to def, then each range lo..hi to its class.
func dscpMap(def int, ranges ...[3]int) map[int]int {
	m := map[int]int{}
	for d := 0; d < 64; d++ {
		m[d] = def
	}
	for _, r := range ranges {
		for d := r[0]; d <= r[1]; d++ {
			m[d] = r[2]
		}
	}
	return m
}

func dwrrExcept(strict ...int) map[int]string {
	m := map[int]string{}
	for q := 0; q < 8; q++ {
		m[q] = "dwrr"
	}
	for _, q := range strict {
		m[q] = "strict"
	}
	return m
}

// The classification each NOS really ships, judged by where the recipe's DSCPs land rather
// than by fixed class numbers.
func TestSwitchClassificationFollowsTheSwitch(t *testing.T) {
	e := src("show")
	identity := dscpMap(0)
	for q := 0; q < 8; q++ {
		identity[q] = q
	}
	cases := []struct {
		name       string
		mut        func(p *topology.SwitchPort)
		dscp, cnp  Status
		dscpActual string
		dscpMsg    string
		cnpActual  string
		cnpMsg     string
	}{
		{"NX-OS AI/ML: match dscp 24-31 -> qos-group 3, 48 -> qos-group 7 priority level 1", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Known(dscpMap(0, [3]int{24, 31, 3}, [3]int{48, 48, 7}), e)
			p.TCToQueue = topology.Known(identity, e)
			p.Scheduler = topology.Known(dwrrExcept(7), e)
		}, Pass, Pass, "DSCP 26 -> class 3 (queue 3), DSCP 48 -> class 7 (queue 7)", "", "DSCP 48 -> class 7, queue 7 strict", ""},
		{"NX-OS: pause pfc-cos 3 in c-8q-nq5, DSCP 26 -> qos-group 5", func(p *topology.SwitchPort) {
			p.PriorityClass = map[int]int{3: 5}
			p.DSCPToTC = topology.Known(dscpMap(0, [3]int{26, 26, 5}, [3]int{48, 48, 7}), e)
			p.Scheduler = topology.Known(dwrrExcept(7), e)
			p.ECN = topology.Known(map[int]bool{5: true}, e)
			p.Buffer = topology.Known(topology.Buffer{LosslessPGs: []int{5}}, e)
		}, Pass, Pass, "DSCP 26 -> class 5 (queue 5)", "", "queue 7 strict", ""},
		{"NX-OS: pfc-cos 3 is qos-group 5's, DSCP 26 -> qos-group 3", func(p *topology.SwitchPort) {
			p.PriorityClass = map[int]int{3: 5}
			p.DSCPToTC = topology.Known(dscpMap(0, [3]int{26, 26, 3}, [3]int{48, 48, 7}), e)
			p.Scheduler = topology.Known(dwrrExcept(7), e)
			p.ECN = topology.Known(map[int]bool{5: true}, e)
			p.Buffer = topology.Known(topology.Buffer{LosslessPGs: []int{5}}, e)
		}, Fail, Pass, "DSCP 26 -> class 3 (queue 3)", "lands in class 3, a lossy class (no PFC), not in class 5", "queue 7 strict", ""},
		{"SONiC AZURE: 26 -> TC1, 48 -> TC6 on DWRR scheduler.0", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Known(dscpMap(1, [3]int{3, 3, 3}, [3]int{4, 4, 4}, [3]int{46, 46, 5}, [3]int{48, 48, 6}, [3]int{8, 8, 0}), e)
			p.PFC = topology.Known(topology.SwitchPFC{RX: []int{3, 4}, TX: []int{3, 4}}, e)
			p.Scheduler = topology.Known(dwrrExcept(), e)
		}, Fail, Fail, "DSCP 26 -> class 1 (queue 1), DSCP 48 -> class 6 (queue 6)", "lands in class 1, a lossy class (no PFC)",
			"DSCP 48 -> class 6, queue 6 dwrr", "CNPs land in queue 6, which is scheduled dwrr, not strict priority"},
		{"Cumulus qos roce: 24-31 -> SP3, 48-55 -> SP6, SP6 -> TC6 strict", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Known(dscpMap(0, [3]int{24, 31, 3}, [3]int{48, 55, 6}), e)
			p.TCToQueue = topology.Known(map[int]int{0: 0, 1: 0, 2: 0, 3: 3, 4: 0, 5: 0, 6: 6, 7: 0}, e)
			p.Scheduler = topology.Known(map[int]string{0: "dwrr", 3: "dwrr", 6: "strict"}, e)
		}, Pass, Pass, "DSCP 26 -> class 3 (queue 3), DSCP 48 -> class 6 (queue 6)", "", "queue 6 strict", ""},
		{"CNP in the RoCE class", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Known(dscpMap(0, [3]int{24, 31, 3}, [3]int{48, 48, 3}), e)
		}, Fail, Fail, "DSCP 48 -> class 3 (queue 3)", "lands in the RoCE class 3", "DSCP 48 -> class 3", "CNPs land in the RoCE class 3"},
		{"CNP unmapped (SONiC map without 48)", func(p *topology.SwitchPort) {
			p.DSCPToTC = topology.Known(map[int]int{26: 3}, e)
		}, Fail, Fail, "DSCP 48 unmapped", "the CNP DSCP 48 has no class", "DSCP 48 unmapped", "CNPs have no queue of their own"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			tc.mut(p)
			res := swResults(switchSnap(p), Options{})
			d, c := res["SW-DSCP-MAP leaf1:Ethernet1/1"], res["SW-CNP-QUEUE leaf1:Ethernet1/1"]
			if d.Status != tc.dscp || !strings.Contains(d.Actual, tc.dscpActual) || !strings.Contains(d.Message, tc.dscpMsg) {
				t.Errorf("SW-DSCP-MAP = %s %q %q, want %s %q %q", d.Status, d.Actual, d.Message, tc.dscp, tc.dscpActual, tc.dscpMsg)
			}
			if c.Status != tc.cnp || !strings.Contains(c.Actual, tc.cnpActual) || !strings.Contains(c.Message, tc.cnpMsg) {
				t.Errorf("SW-CNP-QUEUE = %s %q %q, want %s %q %q", c.Status, c.Actual, c.Message, tc.cnp, tc.cnpActual, tc.cnpMsg)
			}
			for _, id := range []string{"SW-ECN", "SW-BUFFER"} { // the RoCE queue and group follow the class too
				if r := res[id+" leaf1:Ethernet1/1"]; r.Status != Pass {
					t.Errorf("%s = %s %q %q", id, r.Status, r.Actual, r.Message)
				}
			}
		})
	}
}

// A CNP map that cannot be read leaves SW-CNP-QUEUE undecided rather than guessing queue 6.
func TestCNPQueueNeedsTheDSCPMap(t *testing.T) {
	p := healthySwitchPort("Ethernet1/1")
	p.DSCPToTC = topology.Unknown[map[int]int](topology.Evidence{Command: "show running-config ipqos", Error: "policy ROCE-IN is attached but not defined"})
	r := swResults(switchSnap(p), Options{})["SW-CNP-QUEUE leaf1:Ethernet1/1"]
	if r.Status != Error || !strings.Contains(r.Message, "not defined") {
		t.Fatalf("got %s %q %q", r.Status, r.Actual, r.Message)
	}
}

// NX-OS mode auto ports are decided by their operational state when it was read.
func TestNegotiatedPFCFollowsOperationalState(t *testing.T) {
	e := src("show interface priority-flow-control | json")
	cases := []struct {
		oper        string
		rx          []int
		pfc, link   Status
		actual, msg string
	}{
		{"on", []int{3}, Pass, Pass, "PFC on priority 3 (mode auto, operational: negotiated by DCBX)", ""},
		{"off", []int{}, Fail, Fail, "negotiated (mode auto), operationally off", "PFC is not operational"},
		{"", []int{3}, Error, Error, "negotiated (mode auto)", "operational state was not read"},
	}
	for _, tc := range cases {
		t.Run("oper "+tc.oper, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.PFC = topology.Known(topology.SwitchPFC{RX: tc.rx, TX: tc.rx, Mode: "auto", Oper: tc.oper}, e)
			snap := switchSnap(p)
			r := swResults(snap, Options{})["SW-PFC leaf1:Ethernet1/1"]
			if r.Status != tc.pfc || r.Actual != tc.actual || !strings.Contains(r.Message, tc.msg) {
				t.Errorf("SW-PFC = %s %q %q, want %s %q %q", r.Status, r.Actual, r.Message, tc.pfc, tc.actual, tc.msg)
			}
			for _, l := range Run(snap, Options{Only: []string{"LINK-PFC"}}) {
				if strings.Contains(l.Device+l.Peer, "leaf1:Ethernet1/1") && l.Status != tc.link {
					t.Errorf("LINK-PFC = %s %q %q, want %s", l.Status, l.Actual, l.Message, tc.link)
				}
			}
		})
	}
}

// SW-BUFFER judges the RoCE priority group alone.
func TestBufferJudgesTheRoCEGroupAlone(t *testing.T) {
	e := src("show runningconfiguration all")
	cases := []struct {
		name   string
		b      topology.Buffer
		status Status
		actual string
	}{
		{"dangling profile on another PG", topology.Buffer{LosslessPGs: []int{3, 4},
			PGs:        map[int]string{0: "BUFFER_PROFILE|gone is not in CONFIG_DB", 3: "pg_lossless_100000_5m_profile: lossless, xoff=\"23552\""},
			Unreadable: []int{0}}, Pass, "priority group 3: pg_lossless_100000_5m_profile: lossless"},
		{"dangling profile on the RoCE PG", topology.Buffer{LosslessPGs: []int{},
			PGs: map[int]string{3: "BUFFER_PG|Ethernet0|3-4 refers to BUFFER_PROFILE|gone, which is not in CONFIG_DB"}, Unreadable: []int{3, 4}}, Error, "priority group 3: profile unreadable"},
		{"dynamic model NULL", topology.Buffer{LosslessPGs: []int{3, 4},
			PGs: map[int]string{3: "NULL: lossless, computed by the dynamic buffer model"}}, Pass, "computed by the dynamic buffer model"},
		{"lossy profile", topology.Buffer{LosslessPGs: []int{},
			PGs: map[int]string{3: "ingress_lossy_profile: lossy, no xoff"}}, Fail, "priority group 3: ingress_lossy_profile: lossy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.Buffer = topology.Known(tc.b, e)
			r := swResults(switchSnap(p), Options{})["SW-BUFFER leaf1:Ethernet1/1"]
			if r.Status != tc.status || !strings.Contains(r.Actual, tc.actual) {
				t.Errorf("got %s %q %q, want %s %q", r.Status, r.Actual, r.Message, tc.status, tc.actual)
			}
		})
	}
}
