package sonic

import (
	"regexp"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NewState is a healthy SONiC switch: every port 100G, up, at the SONiC jumbo MTU and on the
// lossless recipe (switchstate.HealthyPort). Neighbours are the caller's to set.
func NewState(name, mac string, ports ...string) *switchstate.Switch {
	return switchstate.HealthySwitch(name, "sonic", DefaultModel, DefaultVersion, mac, MTU, ports...)
}

var portName = regexp.MustCompile(`^Ethernet[0-9]+$`)

// Validate lists what in sw a SONiC switch cannot show as it is, each as an error naming the
// port and what the collector will see instead. A state that passes Validate round-trips
// through the SONiC collector exactly, apart from what SONiC never reports: 802.3x pause and
// DCBX are "not supported", and a port that does not trust DSCP has no DSCP map.
func Validate(sw *switchstate.Switch) error {
	return sw.CheckPorts("sonic", func(sw *switchstate.Switch, p *switchstate.Port, bad func(format string, args ...any)) {
		if !portName.MatchString(p.Name) {
			bad("not a SONiC front-panel port name (EthernetN)")
		}
		if p.MTU < 68 || p.MTU > 9216 {
			bad("MTU %d is outside SONiC's range 68..9216", p.MTU)
		}
		if p.PFCRX != p.PFCTX && !asymmetric(p) {
			bad("PFC rx %s, tx %s: SONiC's only asymmetric PFC is pfc_asym on (rx on every priority); rendered on %s both ways",
				list(p.PFCRX), list(p.PFCTX), list(pfcEnable(p)))
		}
		if w := watchdog(p); w != p.Watchdog {
			bad("watchdog on %s but PFC on %s: SONiC's watchdog only guards PFC priorities (rendered on %s)",
				list(p.Watchdog), list(pfcEnable(p)), list(w))
		}
		if p.PauseRX || p.PauseTX {
			bad("802.3x pause: community SONiC has no flow-control setting (reported not supported)")
		}
		if p.DCBX || p.PFCAuto {
			bad("DCBX: community SONiC's lldpd has none (reported static)")
		}
	})
}
