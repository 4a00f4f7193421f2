package sonic

import (
	"fmt"

	"github.com/roceaudit/roceaudit/remedy"
)

// watchdogRestorationFix keeps the port's watchdog action and detection time and lengthens its
// restoration time so the queue stays dropped until the NIC's own storm prevention has ended
// the storm (rounded up to 100 ms; SONiC accepts up to 60000). "" when the facts do not say.
func watchdogRestorationFix(in remedy.Input) string {
	t, rest, ok := in.WatchdogRestoration()
	if !ok || rest > 60000 {
		return ""
	}
	action := t.Action
	if action == "" {
		action = "drop"
	}
	return fmt.Sprintf("sudo config pfcwd start --action %s %s %d --restoration-time %d", action, in.Port, t.DetectionMs, rest)
}
