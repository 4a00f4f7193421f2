package eos

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Leaf3 is the EOS leaf of the lab fabric (lab/fabric.go) (what this emulator's tests and the collector
// round trips in labcheck/ run on): Ethernet1..4 to gpu05..gpu08 ens1f0np0,
// Ethernet49 to spine1 Ethernet1/3, Ethernet50 to spine2 Ethernet8.
func Leaf3() *switchstate.Switch {
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
