// Package example builds the facts of a typical misconfigured switch port, which each switch
// platform adjusts to its own shape: explain prints every platform's fix for such a port,
// exactly as an audit of it would.
package example

import "github.com/roceaudit/roceaudit/topology"

// Switch is port name with MTU mtu as a switch left near its factory QoS reports it: DSCP
// trusted but mapped as stock SONiC's AZURE map does (DSCP 26 to lossy class 1, 46 to 5, 48
// to 6), queues numbered as classes, PFC on priorities 3 and 4, link pause on, no ECN, no PFC
// watchdog, weighted queues, no lossless buffer.
func Switch(name string, mtu topology.MTU) *topology.SwitchPort {
	src := topology.Evidence{Command: "example"}
	dscp := map[int]int{}
	for d := 0; d < 64; d++ {
		dscp[d] = 1
	}
	dscp[0], dscp[3], dscp[4], dscp[8], dscp[46], dscp[48] = 0, 3, 4, 0, 5, 6
	queues, ecn, sched := map[int]int{}, map[int]bool{}, map[int]string{}
	for q := 0; q < 8; q++ {
		queues[q], ecn[q], sched[q] = q, false, "dwrr"
	}
	return &topology.SwitchPort{
		Name:        name,
		MTU:         topology.Known(mtu, src),
		Trust:       topology.Known("dscp", src),
		DSCPToTC:    topology.Known(dscp, src),
		TCToQueue:   topology.Known(queues, src),
		PFC:         topology.Known(topology.SwitchPFC{RX: []int{3, 4}, TX: []int{3, 4}}, src),
		PFCWatchdog: topology.Known(map[int]bool{}, src),
		Pause:       topology.Known(topology.Pause{RX: true, TX: true}, src),
		ECN:         topology.Known(ecn, src),
		Scheduler:   topology.Known(sched, src),
		DCBX:        topology.Known(topology.DCBX{Mode: "static"}, src),
		Buffer:      topology.Known(topology.Buffer{LosslessPGs: []int{}}, src),
	}
}
