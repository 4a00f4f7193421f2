package linux

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSystemctlActive reads `systemctl is-active UNIT`. "unknown" (older systemd, unit not
// installed) and "failed" mean not running.
func ParseSystemctlActive(text string) (bool, error) {
	switch s := strings.TrimSpace(text); s {
	case "active", "reloading", "activating", "refreshing":
		return true, nil
	case "inactive", "failed", "unknown", "deactivating", "maintenance":
		return false, nil
	default:
		return false, fmt.Errorf("systemctl is-active: %q (expected active, inactive, failed or unknown)", s)
	}
}

// ParsePgrep reads `pgrep -x NAME` (procps-ng pgrep(1)): exit 0 with one PID per line when a
// process matches, exit 1 with nothing when none does; 2 and 3 are usage and fatal errors.
func ParsePgrep(text string, exit int) (bool, error) {
	switch exit {
	case 0:
		for _, f := range strings.Fields(text) {
			if _, err := strconv.Atoi(f); err != nil {
				return false, fmt.Errorf("pgrep: %q is not a process ID", f)
			}
		}
		if strings.TrimSpace(text) == "" {
			return false, fmt.Errorf("pgrep: exit 0 without a process ID")
		}
		return true, nil
	case 1:
		return false, nil
	}
	return false, fmt.Errorf("pgrep failed (exit %d)", exit)
}
