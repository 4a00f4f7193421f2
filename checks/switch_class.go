package checks

import (
	"strconv"

	"github.com/roceaudit/roceaudit/topology"
)

// landing describes where m puts dscp on p: "DSCP 26 -> class 3 (queue 3)".
func landing(p *topology.SwitchPort, m map[int]int, dscp int) string {
	tc, ok := m[dscp]
	if !ok {
		return "DSCP " + strconv.Itoa(dscp) + " unmapped"
	}
	return "DSCP " + strconv.Itoa(dscp) + " -> class " + strconv.Itoa(tc) + " (queue " + strconv.Itoa(p.QueueOf(tc)) + ")"
}

// lossyNote says, when the port's PFC is known, whether class tc is one PFC protects: ", a
// lossy class (no PFC)" for one it does not, "" when it does or PFC is unknown.
func lossyNote(p *topology.SwitchPort, tc int) string {
	if !p.PFC.Usable() {
		return ""
	}
	for _, prio := range p.PFC.Value.RX {
		if p.ClassOf(prio) == tc {
			return ""
		}
	}
	return ", a lossy class (no PFC)"
}
