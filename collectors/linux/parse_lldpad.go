package linux

import (
	"fmt"
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
