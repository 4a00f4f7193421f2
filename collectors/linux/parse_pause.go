package linux

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// ParseEthtoolPause reads `ethtool -a IF` (ethtool netlink/pause.c): the Autonegotiate, RX and TX lines
// are required; negotiated results and statistics are ignored.
func ParseEthtoolPause(text string) (topology.Pause, error) {
	var p topology.Pause
	seen := map[string]bool{}
	for _, raw := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(raw), ":")
		if !ok {
			continue
		}
		var dst *bool
		switch key {
		case "Autonegotiate":
			dst = &p.Autoneg
		case "RX":
			dst = &p.RX
		case "TX":
			dst = &p.TX
		default:
			continue // header, "RX negotiated", statistics
		}
		switch strings.TrimSpace(val) {
		case "on":
			*dst = true
		case "off":
			*dst = false
		default:
			return topology.Pause{}, fmt.Errorf("ethtool -a: %s is %q (expected on or off)", key, strings.TrimSpace(val))
		}
		seen[key] = true
	}
	for _, k := range []string{"Autonegotiate", "RX", "TX"} {
		if !seen[k] {
			return topology.Pause{}, fmt.Errorf("ethtool -a: no %q line (expected `Pause parameters for IF:` with Autonegotiate/RX/TX)", k+":")
		}
	}
	return p, nil
}
