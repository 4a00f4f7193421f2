package cumuluscheck

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/cumulus"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// leaf2 is the Cumulus leaf of the lab fabric (lab/fabric.go): swp1..swp4 to gpu01..gpu04 ens1f1np1,
// swp51 to spine1 Ethernet1/2, swp52 to spine2 Ethernet4.
func leaf2() *switchstate.Switch {
	sw := cumulus.NewState("leaf2", "98:03:9b:10:02:00", "swp1", "swp2", "swp3", "swp4", "swp51", "swp52")
	for i := 1; i <= 4; i++ {
		// Stock lldpd: the netdev's MAC as port ID, its name as the description.
		mac := fmt.Sprintf("0c:42:a1:6b:%02x:4d", i)
		sw.Port(fmt.Sprintf("swp%d", i)).Neighbor = &switchstate.Neighbor{SystemName: fmt.Sprintf("gpu%02d", i),
			PortID: mac, PortDescr: "ens1f1np1", ChassisID: mac}
	}
	sw.Port("swp51").Neighbor = &switchstate.Neighbor{SystemName: "spine1", PortID: "Ethernet1/2", PortDescr: "Ethernet1/2", ChassisID: "98:03:9b:10:05:00"}
	sw.Port("swp52").Neighbor = &switchstate.Neighbor{SystemName: "spine2", PortID: "Ethernet4", PortDescr: "Ethernet4", ChassisID: "98:03:9b:10:06:00"}
	return sw
}

type scenario struct {
	name string
	sw   *switchstate.Switch
	roce bool // the regime the switch must be rendered in
}

// scenarios are the healthy leaf2, the lab-fabric fault that lands on Cumulus, port-level
// settings that keep RoCE mode, and per-port QoS that RoCE mode cannot express, which puts the
// switch in the generic regime.
func scenarios() []scenario {
	mtu := leaf2()
	mtu.Port("swp2").MTU = 9000 // SW-MTU

	r := leaf2()
	for _, p := range r.Ports {
		p.ECN[0] = true // what `nv set qos roce` marks by default: 0,3
	}
	s1 := r.Port("swp1")
	s1.Counters = map[string]int64{"pfc_rx_pause_prio3": 120, "pfc_tx_pause_prio3": 7, "pfc_rx_pause_duration_prio3": 88,
		"queue3_tx_packets": 2321737, "queue3_tx_bytes": 293771538, "queue3_drop_bytes": 1500000, "queue3_wred_drops": 4,
		"pg3_rx_frames": 99, "pg0_rx_discard_bytes": 512, "ecn_marked_packets_tx": 31, "rx_pause": 2, "tx_pause": 3}
	r.Port("swp2").Watchdog = [8]bool{}
	r.Port("swp3").Up = false
	r.Port("swp51").Speed = 400

	g := leaf2()
	g1 := g.Port("swp1")
	g1.TrustDSCP = false
	g2 := g.Port("swp2")
	g2.DSCPToTC[26] = 1
	g2.ECN[3] = false
	g3 := g.Port("swp3")
	g3.PFCRX[4], g3.PFCTX[4], g3.Lossless[4], g3.Watchdog[4] = true, true, true, true
	g3.Strict[6], g3.Strict[7] = false, true
	g4 := g.Port("swp4")
	g4.PFCRX, g4.PFCTX, g4.Lossless, g4.Watchdog = [8]bool{}, [8]bool{}, [8]bool{}, [8]bool{}
	g4.PauseRX, g4.PauseTX = true, true
	g51 := g.Port("swp51")
	g51.PFCTX = [8]bool{} // receive-only PFC
	g51.Counters = map[string]int64{"queue0_tx_bytes": 92824380000000, "pfc_rx_pause_prio3": 5}
	g52 := g.Port("swp52")
	g52.PFCRX, g52.PFCTX, g52.Lossless, g52.Watchdog = [8]bool{}, [8]bool{}, [8]bool{}, [8]bool{}
	g52.ECN = [8]bool{}

	return []scenario{
		{"healthy", leaf2(), true},
		{"SW-MTU leaf2 swp2", mtu, true},
		{"RoCE mode variety", r, true},
		{"generic regime", g, false},
	}
}
