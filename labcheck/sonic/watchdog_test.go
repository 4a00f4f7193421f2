package soniccheck

import (
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

// expectedTimers are the PFC_WD row `config pfcwd start_default` writes for a watched port
// (action drop, 200 ms detection and restoration), none for a port without the watchdog.
func expectedTimers(p *switchstate.Port) topology.WatchdogTimers {
	for i, on := range p.Watchdog {
		if on && (p.PFCRX[i] || p.PFCTX[i]) {
			return topology.WatchdogTimers{DetectionMs: 200, RestorationMs: 200, Action: "drop"}
		}
	}
	return topology.WatchdogTimers{}
}
