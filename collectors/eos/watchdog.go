package eos

import (
	"fmt"
	"math"
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

// watchdogTimers is the port's watchdog timeout and recovery time, from its own `port timer`
// line or the global defaults; Unsupported, with why, when neither states a timeout.
func watchdogTimers(rc *RunningConfig, eff Effective, port string) topology.Fact[topology.WatchdogTimers] {
	var t topology.WatchdogTimers
	var lines []string
	for _, l := range rc.GlobalLines {
		if strings.HasPrefix(l, globalAction) {
			t.Action = strings.TrimSpace(strings.TrimPrefix(l, globalAction))
			lines = append(lines, l)
		}
	}
	timeout, recovery, err := globalTimers(rc, &lines)
	if err == nil && eff.WatchdogTimer != "" {
		lines = append(lines, eff.WatchdogTimer)
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

// globalTimers reads the `default timeout` and `default recovery-time` lines, in ms.
func globalTimers(rc *RunningConfig, lines *[]string) (timeout, recovery int, err error) {
	for _, l := range rc.GlobalLines {
		for prefix, dst := range map[string]*int{globalTimeout: &timeout, globalRecovery: &recovery} {
			if !strings.HasPrefix(l, prefix) {
				continue
			}
			if *dst, err = seconds(strings.TrimSpace(strings.TrimPrefix(l, prefix))); err != nil {
				return 0, 0, fmt.Errorf("%q: %w", l, err)
			}
			*lines = append(*lines, l)
		}
	}
	return timeout, recovery, nil
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
