package nxos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// showPFC renders `show interface priority-flow-control` in the text layout NX-OS prints:
// mode as configured (Auto, On, Off), oper On with the hex CoS bitmap of the no-drop classes
// in parentheses, or Off, then the PFC frames received and sent. A mode auto port negotiates
// PFC when its link is up with a neighbour; one without stays Off.
func showPFC(sw *switchstate.Switch) string {
	const rule = "============================================================\n"
	var b strings.Builder
	b.WriteString("\n" + rule + "Port               Mode Oper(VL bmap)  RxPPP      TxPPP\n" + rule + "\n")
	for _, p := range sw.Ports {
		mode := map[string]string{"auto": "Auto", "on": "On", "off": "Off"}[pfcMode(p)]
		mask := 0
		for _, prio := range p.PFCPriorities() {
			mask |= 1 << prio
		}
		oper := "Off"
		if mode != "Off" && mask != 0 && p.Up && (mode == "On" || p.Neighbor != nil) {
			oper = fmt.Sprintf("On  (%x)", mask)
		}
		fmt.Fprintf(&b, "%-18s %-4s %-15s %-10d %d\n", p.Name, mode, oper, counter(p, "rx_pfc"), counter(p, "tx_pfc"))
	}
	return b.String()
}
