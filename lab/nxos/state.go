package nxos

import (
	"fmt"
	"regexp"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NewState is a healthy NX-OS switch: every port 100G, up, at the NX-OS jumbo MTU and on the
// lossless recipe (switchstate.HealthyPort). Neighbours are the caller's to set.
func NewState(name, mac string, ports ...string) *switchstate.Switch {
	return switchstate.HealthySwitch(name, "nxos", DefaultModel, DefaultVersion, mac, MTU, ports...)
}

var portName = regexp.MustCompile(`^Ethernet[0-9]+/[0-9]+(/[0-9]+)?$`)

// Validate lists what in sw an NX-OS switch cannot show as it is, each as an error naming
// the port and the rendering it gets instead. A scenario that passes Validate round-trips
// through the NX-OS collector exactly, except that a port that does not trust DSCP reads
// every DSCP as qos-group 0 (it is classified by CoS).
func Validate(sw *switchstate.Switch) error {
	return sw.CheckPorts("nxos", func(sw *switchstate.Switch, p *switchstate.Port, bad func(format string, args ...any)) {
		global := fmt.Sprint(globalPFC(sw))
		if !portName.MatchString(p.Name) {
			bad("not an NX-OS front-panel port name (EthernetN/M)")
		}
		prios := p.PFCPriorities()
		if len(prios) > 0 && fmt.Sprint(prios) != global {
			bad("PFC on %v, but pause pfc-cos is switch-wide on NX-OS (rendered on %s)", prios, global)
		}
		if p.PFCRX != p.PFCTX {
			bad("asymmetric PFC: NX-OS pauses the pfc-cos priorities both ways")
		}
		if (p.PFCAuto || p.DCBX) && len(prios) == 0 {
			bad("mode auto without PFC priorities: an auto port negotiates the switch's pfc-cos %s", global)
		}
		if p.PFCAuto != p.DCBX {
			bad("PFCAuto %v but DCBX %v: on NX-OS a port runs DCBX exactly when its PFC mode is auto", p.PFCAuto, p.DCBX)
		}
		var lossless []int
		for pg, on := range p.Lossless {
			if on {
				lossless = append(lossless, pg)
			}
		}
		if fmt.Sprint(lossless) != global {
			bad("lossless PGs %v: the no-drop classes of the network-qos policy are switch-wide (%s)", lossless, global)
		}
		if p.WatchdogOn() {
			for _, prio := range prios {
				if !p.Watchdog[prio] {
					bad("watchdog on some no-drop priorities only: NX-OS has one watchdog switch per port (rendered on)")
					break
				}
			}
		}
		if p.TrustDSCP && len(classifierOf(p).members(0)) == 64 {
			bad("trusts DSCP but maps every DSCP to qos-group 0: the policy has no class and reads as no classification")
		}
	})
}
