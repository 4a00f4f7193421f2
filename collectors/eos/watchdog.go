package eos

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// EOS watchdog timers are seconds with a fraction ("timeout 0.05"; AVD's schema: "Example: 0.01
// or 60"): the port timer line of the interface or its profile, else the global default.
const (
	globalTimeout  = "priority-flow-control pause watchdog default timeout "
	globalRecovery = "priority-flow-control pause watchdog default recovery-time "
	globalAction   = "priority-flow-control pause watchdog action "
)

// WatchdogDefaults is the device's global PFC watchdog configuration, read once from the
// running-config's global lines: every port starts from it.
type WatchdogDefaults struct {
	Action string
	// TimeoutMs and RecoveryMs are the `default timeout` and `default recovery-time`, 0 when
	// not configured.
	TimeoutMs, RecoveryMs int
	Lines                 []string // the lines they came from, for evidence
	Err                   error    // a timer line that did not parse
}

// parseWatchdogDefaults reads the action line, then the `default timeout` and `default
// recovery-time` lines, from the global priority-flow-control lines.
func parseWatchdogDefaults(global []string) WatchdogDefaults {
	var d WatchdogDefaults
	for _, l := range global {
		if a, ok := strings.CutPrefix(l, globalAction); ok {
			d.Action = strings.TrimSpace(a)
			d.Lines = append(d.Lines, l)
		}
	}
	for _, l := range global {
		dst := &d.TimeoutMs
		v, ok := strings.CutPrefix(l, globalTimeout)
		if !ok {
			dst = &d.RecoveryMs
			if v, ok = strings.CutPrefix(l, globalRecovery); !ok {
				continue
			}
		}
		var err error
		if *dst, err = seconds(strings.TrimSpace(v)); err != nil {
			return WatchdogDefaults{Action: d.Action, Lines: d.Lines, Err: fmt.Errorf("%q: %w", l, err)}
		}
		d.Lines = append(d.Lines, l)
	}
	return d
}

// watchdogTimers is the port's watchdog timeout and recovery time, from its own `port timer`
// line or the global defaults; Unsupported, with why, when neither states a timeout.
func watchdogTimers(rc *RunningConfig, eff Effective, port string) topology.Fact[topology.WatchdogTimers] {
	d := rc.Watchdog
	t := topology.WatchdogTimers{Action: d.Action}
	lines := d.Lines
	timeout, recovery, err := d.TimeoutMs, d.RecoveryMs, d.Err
	if err == nil && eff.WatchdogTimer != "" {
		lines = append(slices.Clip(lines), eff.WatchdogTimer) // a copy: the defaults are every port's
		timeout, recovery, err = portTimer(eff.WatchdogTimer, timeout, recovery)
	}
	src := ev(CmdRunningConfig, strings.Join(lines, "\n"))
	switch {
	case err != nil:
		src.Error = err.Error()
		return topology.Unknown[topology.WatchdogTimers](src)
	case timeout == 0:
		return topology.Unsupported(t, "no watchdog timeout is configured for "+port+
			" (no `priority-flow-control pause watchdog default timeout` or port timer line) and the EOS default is not published", src)
	}
	t.DetectionMs, t.RestorationMs = timeout, recovery
	return topology.Known(t, src)
}

// portTimer reads `priority-flow-control pause watchdog port timer timeout S polling-interval
// S|auto recovery-time S [forced]`; a field it leaves out keeps the global value.
func portTimer(line string, timeout, recovery int) (int, int, error) {
	f := strings.Fields(strings.TrimPrefix(line, "priority-flow-control pause watchdog port timer"))
	for i := 0; i+1 < len(f); i++ {
		var dst *int
		switch f[i] {
		case "timeout":
			dst = &timeout
		case "recovery-time":
			dst = &recovery
		default:
			continue
		}
		v, err := seconds(f[i+1])
		if err != nil {
			return 0, 0, fmt.Errorf("%q: %w", line, err)
		}
		*dst, i = v, i+1
	}
	return timeout, recovery, nil
}

// seconds converts an EOS timer in seconds to whole ms.
func seconds(s string) (int, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || v > 3600 {
		return 0, fmt.Errorf("%q is not a timer in seconds", s)
	}
	return int(math.Round(v * 1000)), nil
}
