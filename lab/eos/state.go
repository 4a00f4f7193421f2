package eos

import (
	"fmt"
	"regexp"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NewState is a healthy EOS switch: every port 100G, up, at the EOS jumbo MTU and on the
// lossless recipe (switchstate.HealthyPort). Neighbours are the caller's to set.
func NewState(name, mac string, ports ...string) *switchstate.Switch {
	return switchstate.HealthySwitch(name, "eos", DefaultModel, DefaultVersion, mac, MTU, ports...)
}

var portName = regexp.MustCompile(`^Ethernet[0-9]+(/[0-9]+)*$`)

// Validate lists what in sw an EOS switch cannot show as it is, each as an error naming the
// port and the rendering it gets instead. A scenario that passes Validate round-trips
// through the EOS collector exactly (apart from queues above the lowest strict queue, which
// EOS always schedules strict).
func Validate(sw *switchstate.Switch) error {
	return sw.CheckPorts("eos", func(sw *switchstate.Switch, p *switchstate.Port, bad func(format string, args ...any)) {
		global := globalDSCPMap(sw)
		if !portName.MatchString(p.Name) {
			bad("not an EOS front-panel port name (EthernetN or EthernetN/M)")
		}
		if p.DSCPToTC != global {
			bad("DSCP map differs from the switch's: EOS maps DSCP to traffic class switch-wide (rendered with the most common map)")
		}
		if p.PFCRX != p.PFCTX {
			bad("asymmetric PFC: EOS enables a no-drop priority both ways (rendered on %v)", p.PFCPriorities())
		}
		if p.PFCAuto {
			bad("PFCAuto is NX-OS's priority-flow-control mode auto; EOS has no such mode (use DCBX)")
		}
		var lossless []int
		for pg, on := range p.Lossless {
			if on {
				lossless = append(lossless, pg)
			}
		}
		if fmt.Sprint(lossless) != fmt.Sprint(p.PFCPriorities()) {
			bad("lossless PGs %v differ from the no-drop priorities %v: EOS reserves headroom for exactly the no-drop priorities", lossless, p.PFCPriorities())
		}
		if p.WatchdogOn() {
			for _, prio := range p.PFCPriorities() {
				if !p.Watchdog[prio] {
					bad("watchdog on some no-drop priorities only: EOS has one watchdog switch per port (rendered on)")
					break
				}
			}
		}
	})
}
