package cumulus

import (
	"regexp"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// NewState is a healthy Cumulus switch: every port 100G, up, at the Cumulus jumbo MTU and on
// the lossless recipe (switchstate.HealthyPort), which is what RoCE lossless mode applies.
// Neighbours are the caller's to set.
func NewState(name, mac string, ports ...string) *switchstate.Switch {
	return switchstate.HealthySwitch(name, "cumulus", DefaultModel, DefaultVersion, mac, MTU, ports...)
}

var portName = regexp.MustCompile(`^swp[0-9]+(s[0-9]+)?$`)

// Validate lists what in sw a Cumulus switch cannot show as it is, each as an error naming
// the port. A state that passes Validate round-trips through the Cumulus collector exactly, in
// Cumulus's own terms: DCBX is "not supported"; the PFC watchdog is one switch per port (on
// for every priority); RoCE mode maps the switch priorities other than 3 and 6 to traffic
// class 0; and in the generic regime a port that trusts only PCP has no DSCP map and the
// lossless buffer of a port with PFC is not reported.
func Validate(sw *switchstate.Switch) error {
	return sw.CheckPorts("cumulus", func(sw *switchstate.Switch, p *switchstate.Port, bad func(format string, args ...any)) {
		v := portView(p, false)
		if !portName.MatchString(p.Name) {
			bad("not a Cumulus front-panel port name (swpN or swpNsM)")
		}
		if p.MTU < 552 || p.MTU > 9216 {
			bad("MTU %d is outside Cumulus's range 552..9216", p.MTU)
		}
		if (v.rx && p.PFCRX != v.pfc) || (v.tx && p.PFCTX != v.pfc) {
			bad("PFC rx %s, tx %s: Cumulus turns rx and tx on or off for one set of switch priorities (rendered on %s)",
				list(p.PFCRX), list(p.PFCTX), list(v.pfc))
		}
		if p.Lossless != v.pfc {
			bad("lossless priority groups %s differ from the PFC priorities %s: Cumulus reserves headroom for exactly the PFC priorities",
				list(p.Lossless), list(v.pfc))
		}
		if v.watchdog && watchdogPartial(p, v) {
			bad("watchdog on %s, PFC on %s: Cumulus has one watchdog switch per port, covering every PFC priority",
				list(p.Watchdog), list(v.pfc))
		}
		if v.watchdog && !v.rx && !v.tx && !p.PauseRX && !p.PauseTX {
			bad("watchdog without PFC or link pause: Cumulus only enables it on ports that have one")
		}
		if (p.PauseRX || p.PauseTX) && (v.rx || v.tx) {
			bad("link pause and PFC on the same port: Cumulus allows one or the other")
		}
		if p.DCBX || p.PFCAuto {
			bad("DCBX: Cumulus only transmits DCBX TLVs and never negotiates (reported static)")
		}
	})
}

// watchdogPartial: the watchdog is on for some PFC priorities but not all, or on priorities
// without PFC.
func watchdogPartial(p *switchstate.Port, v view) bool {
	if !v.rx && !v.tx {
		return false // a link-pause port: the watchdog watches the port
	}
	return p.Watchdog != v.pfc
}
