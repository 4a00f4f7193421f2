package eos

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/remedy"
)

// watchdogRecoveryFix lengthens the watchdog's recovery time (seconds) so the queue stays
// dropped until the NIC's own storm prevention has ended the storm. "" when the facts do not
// say.
func watchdogRecoveryFix(in remedy.Input) string {
	_, ms, ok := in.WatchdogRestoration()
	if !ok {
		return ""
	}
	return fmt.Sprintf("configure\npriority-flow-control pause watchdog default recovery-time %s\nend",
		strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
}
