package eos

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// leaf3 is the EOS leaf of notes/lab-fabric.md: Ethernet1..4 to gpu05..gpu08 ens1f0np0,
// Ethernet49 to spine1 Ethernet1/3, Ethernet50 to spine2 Ethernet8.
func leaf3() *switchstate.Switch {
	sw := NewState("leaf3", "44:4c:a8:d2:10:00", "Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4", "Ethernet49", "Ethernet50")
	for i := 1; i <= 4; i++ {
		mac := fmt.Sprintf("0c:42:a1:6b:%02x:4c", i+4) // stock lldpd: port ID the MAC, description the netdev
		sw.Port(fmt.Sprintf("Ethernet%d", i)).Neighbor = &switchstate.Neighbor{
			SystemName: fmt.Sprintf("gpu%02d", i+4), PortID: mac, PortDescr: "ens1f0np0",
			ChassisID: mac, MgmtIP: fmt.Sprintf("192.168.100.%d", i+4),
		}
	}
	sw.Port("Ethernet49").Neighbor = &switchstate.Neighbor{SystemName: "spine1", PortID: "Ethernet1/3", PortDescr: "leaf3 uplink", ChassisID: "50:87:89:a1:d8:00"}
	sw.Port("Ethernet50").Neighbor = &switchstate.Neighbor{SystemName: "spine2", PortID: "Ethernet8", ChassisID: "52:54:00:aa:02:00"}
	return sw
}

// scenario is a state and the ports whose QoS settings differ from the shared profile, so
// they carry their own lines instead of service-profile.
type scenario struct {
	name   string
	sw     *switchstate.Switch
	inline []string
}

// scenarios are the healthy leaf3, each lab-fabric fault that lands on EOS alone and
// together, and a variety of settings no scenario uses yet (a generated Clos might).
func scenarios() []scenario {
	trust := leaf3()
	trust.Port("Ethernet2").TrustDSCP = false // SW-TRUST: trust cos

	pause := leaf3()
	pause.Port("Ethernet3").PauseRX = true // SW-PAUSE: flowcontrol receive on

	broken := leaf3()
	broken.Port("Ethernet2").TrustDSCP = false
	broken.Port("Ethernet3").PauseRX = true

	v := leaf3()
	for _, p := range v.Ports {
		p.DSCPToTC[26] = 1 // a switch-wide map that sends RoCE to a lossy class
	}
	e1 := v.Port("Ethernet1")
	e1.DCBX = true
	e1.Counters = map[string]int64{"rx_pause": 5, "tx_pause": 2, "pfc_rx_pause_prio3": 100, "pfc_rx_pause_prio4": 1, "pfc_tx_pause_prio3": 7}
	e2 := v.Port("Ethernet2")
	e2.ECN[3] = false
	e2.Strict[6] = false
	e3 := v.Port("Ethernet3")
	e3.Watchdog[3] = false
	e4 := v.Port("Ethernet4")
	e4.PFCRX[4], e4.PFCTX[4], e4.Lossless[4], e4.Watchdog[4] = true, true, true, true
	e4.Strict[2] = true
	v.Port("Ethernet49").Up = false
	e50 := v.Port("Ethernet50")
	e50.MTU, e50.PauseTX, e50.Speed = 1500, true, 25
	e50.Neighbor.MgmtIP = "10.0.0.2"

	return []scenario{
		{name: "healthy", sw: leaf3()},
		{name: "SW-TRUST leaf3 Ethernet2", sw: trust, inline: []string{"Ethernet2"}},
		{name: "SW-PAUSE leaf3 Ethernet3", sw: pause},
		{name: "broken", sw: broken, inline: []string{"Ethernet2"}},
		{name: "variety", sw: v, inline: []string{"Ethernet2", "Ethernet3", "Ethernet4"}},
	}
}
