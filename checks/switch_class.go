package checks

import (
	"fmt"

	"github.com/roceaudit/roceaudit/topology"
)

// classOf is the traffic class that carries priority prio on p: the class PFC on prio
// protects. NOSes that number classes apart from priorities say so in PriorityClass (NX-OS
// qos-groups); elsewhere the class is the priority.
func classOf(p *topology.SwitchPort, prio int) int {
	if c, ok := p.PriorityClass[prio]; ok {
		return c
	}
	return prio
}

// queueOf is the egress queue of traffic class tc.
func queueOf(p *topology.SwitchPort, tc int) int {
	if p.TCToQueue.Usable() {
		if q, ok := p.TCToQueue.Value[tc]; ok {
			return q
		}
	}
	return tc
}

// landing describes where m puts dscp on p: "DSCP 26 -> class 3 (queue 3)".
func landing(p *topology.SwitchPort, m map[int]int, dscp int) string {
	tc, ok := m[dscp]
	if !ok {
		return fmt.Sprintf("DSCP %d unmapped", dscp)
	}
	return fmt.Sprintf("DSCP %d -> class %d (queue %d)", dscp, tc, queueOf(p, tc))
}

// lossyNote says, when the port's PFC is known, whether class tc is one PFC protects: ", a
// lossy class (no PFC)" for one it does not, "" when it does or PFC is unknown.
func lossyNote(p *topology.SwitchPort, tc int) string {
	if !p.PFC.Usable() {
		return ""
	}
	for _, prio := range p.PFC.Value.RX {
		if classOf(p, prio) == tc {
			return ""
		}
	}
	return ", a lossy class (no PFC)"
}
