package checks

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// linkPFCStorm compares the two watchdogs that end one NIC's pause storm: the NIC's own storm
// prevention (mlx5 pfc-prevention-tout) and the PFC watchdog of the switch port it is cabled to.
//
// "Agree" means the NIC ends its storm no later than the end of the switch watchdog's first
// detect-and-restore cycle. The switch watchdog detects a queue paused without draining for
// its detection time, drops it for its restoration time, then honours pause again: a NIC
// still pausing then pauses the fabric once more, every cycle, until its own timeout stops it.
// Best is the NIC first (the production design: NIC 100 ms, ToR 200 ms), so the fault stays on
// the host and the switch watchdog is the backstop; the mlx5 default of 8 s against a 200 ms
// switch watchdog lets the storm restart in the fabric some twenty times.
func linkPFCStorm() *Check {
	return &Check{
		ID: "LINK-PFC-STORM", Title: "the NIC's pause-storm timeout ends a storm within the switch watchdog's first cycle",
		Scope: ScopeLink, Severity: Warning,
		Rationale: "A NIC whose receiver stalls keeps sending PFC pause; two timers end such a storm. The NIC's " +
			"storm prevention (mlx5 pfc-prevention-tout) stops its pause after that many ms; the switch port's " +
			"PFC watchdog drops the paused queue after its detection time, for its restoration time, then honours " +
			"pause again. A NIC that stops first keeps the fault on the host and leaves the switch watchdog as the " +
			"backstop (Microsoft's production design: NIC 100 ms, ToR 200 ms). A NIC that is still pausing when the " +
			"watchdog restores the queue pauses the fabric again, every cycle, until its own timeout: the mlx5 " +
			"default (8000 ms) against SONiC's 200 ms detection and 200 ms restoration restarts the storm about 19 times.",
		Sources: []string{
			"Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM 2016, §4.3 (NIC watchdog 100 ms, ToR watchdog 200 ms): https://blog.bxhu2004.com/sci/Networks/RoCE/4.3_NIC_PFC_pause_frame_storm",
			"mlx5 pfc-prevention-tout: range 80-8000 ms, default 8000, auto 100 (netdev patch, https://www.mail-archive.com/netdev@vger.kernel.org/msg225250.html)",
			"SONiC PFC_WD detection_time / restoration_time (sonic-pfcwd.yang; sonic-net/SONiC doc/pfcwd)",
			"EOS priority-flow-control pause watchdog default timeout / recovery-time (seconds; aristanetworks/avd priority-flow-control.md)",
		},
		Expected: func(recipe.Recipe) string {
			return "the NIC's pfc-prevention-tout <= the switch port's watchdog detection time + restoration time (best: below the detection time)"
		},
		Hint: "lower the NIC's pfc-prevention-tout below the switch watchdog's detection time (100 ms, the mlx5 auto value), " +
			"or lengthen the switch watchdog's restoration time past the NIC's timeout",
		link: func(r recipe.Recipe, a, b end) verdict {
			h, s := a, b
			if h.host == nil {
				h, s = b, a
			}
			if h.host == nil || s.sw == nil {
				return verdict{status: Skip, actual: "not a host-switch link", message: "only a NIC's storm prevention meets a switch watchdog"}
			}
			return stormTimersVerdict(r, h, s)
		},
	}
}

// stormTimersVerdict judges the NIC end h against the switch end s.
func stormTimersVerdict(r recipe.Recipe, h, s end) verdict {
	nic, wd := h.host.PFCPreventionMs, s.sw.WatchdogTimers
	switch {
	case nic.Status == topology.FactUnsupported:
		return verdict{status: Skip, actual: "the NIC has no storm prevention timeout", message: nic.Reason}
	case !nic.Usable():
		return unknown("the NIC's pfc-prevention-tout", nic.Source)
	case nic.Value == 0:
		return verdict{status: Skip, actual: "NIC storm prevention off", message: "the NIC never ends a storm itself (HOST-PFC-STORM reports it)"}
	case !s.sw.PFCWatchdog.Usable() || !s.sw.PFCWatchdog.Value[r.RoCEPriority]:
		return verdict{status: Skip, actual: "no switch watchdog", message: fmt.Sprintf(
			"the switch port runs no PFC watchdog on priority %d (SW-PFC-WATCHDOG reports it)", r.RoCEPriority)}
	case wd.Status == topology.FactUnsupported:
		return verdict{status: Skip, actual: "switch watchdog timers not read", message: wd.Reason}
	case !wd.Usable():
		return unknown("the switch watchdog's timers", wd.Source)
	}
	t := wd.Value
	cycle := t.DetectionMs + t.RestorationMs
	actual := h.ref.String() + " pfc-prevention-tout " + strconv.Itoa(nic.Value) + " ms; " + s.ref.String() +
		" watchdog detection " + strconv.Itoa(t.DetectionMs) + " ms, restoration " + strconv.Itoa(t.RestorationMs) + " ms"
	ev := linkEvidence(h, s, func(e end) topology.Evidence {
		if e.host != nil {
			return e.host.PFCPreventionMs.Evidence()
		}
		return e.sw.WatchdogTimers.Evidence()
	})
	switch {
	case nic.Value < t.DetectionMs:
		return verdict{status: Pass, actual: actual}
	case nic.Value <= cycle:
		return verdict{status: Pass, actual: actual, message: fmt.Sprintf(
			"the switch watchdog acts first (after %d ms); the NIC ends its storm (after %d ms) within the watchdog's first cycle", t.DetectionMs, nic.Value)}
	}
	restarts := (nic.Value - t.DetectionMs) / max(cycle, 1)
	msg := fmt.Sprintf("a stalled NIC keeps pausing for %d ms, but the switch watchdog restores the queue after %d ms: "+
		"the storm restarts in the fabric about %s before the NIC's own prevention stops it", nic.Value, cycle, times(int64(max(restarts, 1))))
	fix := fmt.Sprintf("lower %s's pfc-prevention-tout below %d ms (the switch's detection time), or raise %s's watchdog restoration time to %d ms or more",
		h.ref, t.DetectionMs, s.ref, nic.Value-t.DetectionMs)
	if t.DetectionMs <= stormPreventionMinMs {
		fix = fmt.Sprintf("%s's detection time (%d ms) is below the NIC's shortest timeout (%d ms): raise its watchdog restoration time to %d ms or more, "+
			"or lower the NIC's timeout toward %d ms", s.ref, t.DetectionMs, stormPreventionMinMs, nic.Value-t.DetectionMs, stormPreventionMinMs)
	}
	return verdict{status: Warn, actual: actual, message: msg, evidence: ev, remediation: fix, platformFix: true}
}

// stormPreventionMinMs is the shortest pfc-prevention-tout mlx5 accepts
// (MLX5E_PFC_PREVEN_TOUT_MIN_MSEC).
const stormPreventionMinMs = 80
