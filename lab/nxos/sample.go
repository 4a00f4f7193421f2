package nxos

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Leaf4 is the NX-OS leaf of the lab fabric (lab/fabric.go) (what this emulator's tests and the collector
// round trips in labcheck/ run on): Ethernet1/1..1/4 to gpu05..gpu08
// ens1f1np1, Ethernet1/49 to spine1 Ethernet1/4, Ethernet1/50 to spine2 Ethernet12.
func Leaf4() *switchstate.Switch {
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

// Spine1 is the NX-OS spine: Ethernet1/1..1/4 to leaf1..leaf4's first uplinks.
func Spine1() *switchstate.Switch {
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
