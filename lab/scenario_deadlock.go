package lab

import "slices"

// ScenarioDeadlock is the healthy lab recabled into a deadlock-prone fabric: leaf1/leaf2 and
// leaf3/leaf4 are MLAG pairs whose peer links carry PFC on the RoCE priority (as every lab
// port does), and each leaf is uplinked to one spine only (leaf1 and leaf3 to spine1, leaf2
// and leaf4 to spine2). Lossless traffic between the pairs then runs round the ring
// leaf1 - spine1 - leaf3 - leaf4 - spine2 - leaf2 - leaf1 in both directions, and its queues
// wait on each other in a circle: a cyclic buffer dependency. Every port is healthy.
const ScenarioDeadlock = "deadlock"

// deadlockPeerLinks are the MLAG peer links, one new port on each leaf.
var deadlockPeerLinks = [][2]end{
	{{"leaf1", "Ethernet56"}, {"leaf2", "swp53"}},
	{{"leaf3", "Ethernet51"}, {"leaf4", "Ethernet1/51"}},
}

// deadlockMissingUplinks are the fixed fabric's uplinks this scenario does not cable.
var deadlockMissingUplinks = [][2]end{
	{{"leaf1", "Ethernet52"}, {"spine2", "Ethernet0"}},
	{{"leaf2", "swp51"}, {"spine1", "Ethernet1/2"}},
	{{"leaf3", "Ethernet50"}, {"spine2", "Ethernet8"}},
	{{"leaf4", "Ethernet1/49"}, {"spine1", "Ethernet1/4"}},
}

// deadlockFabric is the fixed fabric with the peer links cabled and the missing uplinks not.
func deadlockFabric() fabric {
	cables := slices.DeleteFunc(fabricCables(), func(c [2]end) bool { return slices.Contains(deadlockMissingUplinks, c) })
	return fabric{switches: fabricSwitches, cables: cables}.withCables(deadlockPeerLinks...)
}
