package eoscheck

import (
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

// expectedTimers are the global watchdog defaults the rendered running-config states once any
// port runs the watchdog (timeout 0.05 s, recovery-time 1.1 s, action drop); none otherwise.
func expectedTimers(sw *switchstate.Switch) topology.WatchdogTimers {
	for _, p := range sw.Ports {
		if p.WatchdogOn() {
			return topology.WatchdogTimers{DetectionMs: 50, RestorationMs: 1100, Action: "drop"}
		}
	}
	return topology.WatchdogTimers{}
}
