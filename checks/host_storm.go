package checks

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// mlx5 pause-storm counters (ethtool -S): the warning mark is reached while the NIC keeps
// pausing, the error mark when its storm-prevention timeout expires and it stops sending pause.
const (
	stormWarning = "tx_pause_storm_warning_events"
	stormError   = "tx_pause_storm_error_events"
)

// hostPFCStorm reports a NIC that has paused its link long enough to trip its own storm
// prevention: a receiver that stalls (PCIe, host memory) and spreads pause into the fabric.
func hostPFCStorm() *Check {
	return &Check{
		ID: "HOST-PFC-STORM", Title: "the NIC has not hit its pause-storm marks, and its storm prevention is on",
		Scope: ScopeHostPort, Severity: Warning,
		Rationale: "A NIC that cannot drain its receive buffer sends PFC pause without end; the pause spreads " +
			"through the switches (a PFC storm) until a watchdog breaks it. mlx5 counts the storms it saw: the " +
			"warning mark while it keeps pausing, the error mark when its prevention timeout expires and it stops " +
			"sending pause, when drops may have occurred. Either one rising means the host, not the fabric, paused " +
			"the lossless class. With prevention off (timeout 0) only a switch's PFC watchdog ends such a storm.",
		Sources: []string{"Linux Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst (tx_pause_storm_warning_events, tx_pause_storm_error_events)",
			"ethtool(8) --get-tunable pfc-prevention-tout (mlx5 default 8000 ms, range 80-8000)"},
		Expected: func(recipe.Recipe) string { return "no pause-storm warning or error events; pfc-prevention-tout not 0" },
		Hint: "find what stalls the receiver (PCIe errors, NUMA placement, a hung application); the counters " +
			"are cumulative since the driver loaded, so compare them over time before acting",
		hostPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.Counters.Usable() {
				return unknown("NIC counters", p.Counters.Source)
			}
			c := p.Counters.Value
			warn, hasW := c[stormWarning]
			errs, hasE := c[stormError]
			if !hasW && !hasE {
				return verdict{status: Skip, actual: "no pause-storm counters",
					message: "the NIC driver does not count pause storms (not mlx5)"}
			}
			actual := stormWarning + " " + strconv.FormatInt(warn, 10) + ", " + stormError + " " + strconv.FormatInt(errs, 10)
			if p.PFCPreventionMs.Usable() {
				actual += ", storm prevention timeout " + strconv.Itoa(p.PFCPreventionMs.Value) + " ms"
			}
			switch {
			case errs > 0:
				return verdict{status: Warn, actual: actual, evidence: ev(p.Counters.Evidence()), message: fmt.Sprintf(
					"the NIC reached its storm-prevention timeout %s and stopped sending pause: the lossless class may have dropped", times(errs))}
			case warn > 0:
				return verdict{status: Warn, actual: actual, evidence: ev(p.Counters.Evidence()), message: fmt.Sprintf(
					"the NIC paused its link long enough to reach the storm warning mark %s", times(warn))}
			case p.PFCPreventionMs.Usable() && p.PFCPreventionMs.Value == 0:
				return verdict{status: Warn, actual: actual, evidence: ev(p.PFCPreventionMs.Evidence()),
					message: "the NIC's pause-storm prevention is off (pfc-prevention-tout 0): a stalled receiver pauses the link " +
						"until a switch's PFC watchdog breaks it", remediation: "# 100 ms is the mlx5 driver's auto value\nethtool --set-tunable " + p.Netdev + " pfc-prevention-tout 100"}
			}
			return verdict{status: Pass, actual: actual}
		},
	}
}

// times says how often: "once", "3 times".
func times(n int64) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
