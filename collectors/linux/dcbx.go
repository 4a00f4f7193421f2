package linux

import (
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// decideDCBX applies the rule of linux-commands.md: static when the OS owns DCB and lldpad is
// not active; dcbx when the firmware owns DCB or lldpad runs (and may negotiate).
func (w *portWork) decideDCBX(lldp topology.Fact[bool]) {
	src := w.dcbxSrc
	src.Command = strings.Trim(src.Command+"; "+lldp.Source.Command, "; ")
	lldpState := "unknown"
	if lldp.Usable() {
		lldpState = strings.TrimSpace(lldp.Source.Excerpt)
	}
	src.Excerpt = strings.TrimSpace(src.Excerpt + "\nlldpad: " + lldpState) // one concatenation, not two

	if w.dcbxErr != "" || !w.p.QoS.Usable() {
		src.Error = w.dcbxErr
		w.p.DCBX = topology.Unknown[topology.DCBX](src)
		return
	}
	switch w.p.QoS.Value.DCBXMode {
	case "firmware":
		w.p.DCBX = topology.Known(topology.DCBX{Mode: recipe.DCBXDynamic,
			Detail: "firmware controlled: the NIC negotiates DCB with the switch"}, src)
	case "os":
		if !lldp.Usable() {
			src.Error = "DCB is OS controlled, but whether lldpad runs is unknown: " + lldp.Source.Error
			w.p.DCBX = topology.Unknown[topology.DCBX](src)
			return
		}
		if lldp.Value {
			w.p.DCBX = topology.Known(topology.DCBX{Mode: recipe.DCBXDynamic,
				Detail: "OS controlled, and lldpad is active: it negotiates DCBX and may overwrite static settings"}, src)
			return
		}
		w.p.DCBX = topology.Known(topology.DCBX{Mode: recipe.DCBXStatic, Detail: "OS controlled, lldpad not active"}, src)
	default:
		src.Error = "DCB owner not reported"
		w.p.DCBX = topology.Unknown[topology.DCBX](src)
	}
}
