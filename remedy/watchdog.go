package remedy

import "github.com/roceaudit/roceaudit/topology"

// WatchdogRestoration is what LINK-PFC-STORM's switch-side fix needs: the port's watchdog
// timers and the restoration time (ms, rounded up to 100) that keeps the queue dropped until
// the NIC at the far end has ended the storm itself. ok is false when the facts do not say or
// the port already restores late enough.
func (in Input) WatchdogRestoration() (t topology.WatchdogTimers, ms int, ok bool) {
	p, h := in.Switch, in.PeerHost
	if p == nil || h == nil || !p.WatchdogTimers.Usable() || !h.PFCPreventionMs.Usable() {
		return t, 0, false
	}
	t = p.WatchdogTimers.Value
	ms = (h.PFCPreventionMs.Value - t.DetectionMs + 99) / 100 * 100
	return t, ms, ms > t.RestorationMs
}
