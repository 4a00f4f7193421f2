package nxos

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// leaf4 is the NX-OS leaf of notes/lab-fabric.md: Ethernet1/1..1/4 to gpu05..gpu08
// ens1f1np1, Ethernet1/49 to spine1 Ethernet1/4, Ethernet1/50 to spine2 Ethernet12.
func leaf4() *switchstate.Switch {
	sw := NewState("leaf4", "50:87:89:a1:d8:00", "Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4", "Ethernet1/49", "Ethernet1/50")
	for i := 1; i <= 4; i++ {
		mac := fmt.Sprintf("0c:42:a1:6b:%02x:4d", i+4) // stock lldpd: port ID the MAC, description the netdev
		sw.Port(fmt.Sprintf("Ethernet1/%d", i)).Neighbor = &switchstate.Neighbor{
			SystemName: fmt.Sprintf("gpu%02d", i+4), PortID: mac, PortDescr: "ens1f1np1",
			ChassisID: mac, MgmtIP: fmt.Sprintf("192.168.100.%d", i+4),
		}
	}
	sw.Port("Ethernet1/49").Neighbor = &switchstate.Neighbor{SystemName: "spine1", PortID: "Ethernet1/4", PortDescr: "leaf4 uplink", ChassisID: "50:87:89:a1:e0:00"}
	sw.Port("Ethernet1/50").Neighbor = &switchstate.Neighbor{SystemName: "spine2", PortID: "Ethernet12", ChassisID: "52:54:00:aa:02:00"}
	return sw
}

// spine1 is the NX-OS spine: Ethernet1/1..1/4 to leaf1..leaf4's first uplinks.
func spine1() *switchstate.Switch {
	sw := NewState("spine1", "50:87:89:a1:e0:00", "Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4")
	for i, n := range []switchstate.Neighbor{
		{SystemName: "leaf1", PortID: "Ethernet48", ChassisID: "52:54:00:aa:01:00"},
		{SystemName: "leaf2", PortID: "swp51", ChassisID: "48:b0:2d:00:02:00"},
		{SystemName: "leaf3", PortID: "Ethernet49", ChassisID: "44:4c:a8:d2:10:00"},
		{SystemName: "leaf4", PortID: "Ethernet1/49", ChassisID: "50:87:89:a1:d8:00"},
	} {
		sw.Ports[i].Neighbor = &n
	}
	return sw
}

type scenario struct {
	name string
	sw   *switchstate.Switch
}

// scenarios are the healthy leaf4 and spine1, each lab-fabric fault that lands on NX-OS alone
// and together, and settings no scenario uses yet (a generated Clos might).
func scenarios() []scenario {
	wd := leaf4()
	wd.Port("Ethernet1/2").Watchdog[3] = false // SW-PFC-WATCHDOG

	dcbx := leaf4()
	dcbx.Port("Ethernet1/3").PFCAuto = true // SW-DCBX: priority-flow-control mode auto
	dcbx.Port("Ethernet1/3").DCBX = true

	broken := leaf4()
	broken.Port("Ethernet1/2").Watchdog[3] = false
	broken.Port("Ethernet1/3").PFCAuto, broken.Port("Ethernet1/3").DCBX = true, true

	v := leaf4()
	v.Port("Ethernet1/1").TrustDSCP = false
	e2 := v.Port("Ethernet1/2")
	e2.ECN[3], e2.Strict[6] = false, false
	e2.PauseRX, e2.PauseTX, e2.Speed = true, true, 25
	e2.Counters = map[string]int64{"rx_pause": 18231, "tx_pause": 4410}
	e3 := v.Port("Ethernet1/3")
	e3.PFCRX[3], e3.PFCTX[3], e3.Watchdog[3] = false, false, false
	v.Port("Ethernet1/4").Up = false
	v.Port("Ethernet1/49").MTU = 9000
	v.Port("Ethernet1/50").DSCPToTC[26] = 1

	one := leaf4()
	for _, p := range one.Ports[1:] {
		p.Neighbor = nil
	}
	none := spine1()
	for _, p := range none.Ports {
		p.Neighbor = nil
	}

	return []scenario{
		{"healthy leaf4", leaf4()},
		{"healthy spine1", spine1()},
		{"SW-PFC-WATCHDOG leaf4 Ethernet1/2", wd},
		{"SW-DCBX leaf4 Ethernet1/3", dcbx},
		{"broken leaf4", broken},
		{"variety", v},
		{"one LLDP neighbour", one},
		{"no LLDP neighbour", none},
	}
}
