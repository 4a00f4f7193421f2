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
	var seen [3]bool // Autonegotiate, RX, TX: a map was an allocation a port
	for rest, more := text, true; more; {
		var raw string
		raw, rest, more = nextLine(rest)
		key, val, ok := strings.Cut(strings.TrimSpace(raw), ":")
		if !ok {
			continue
		}
		var dst *bool
		var k int
		switch key {
		case "Autonegotiate":
			dst, k = &p.Autoneg, 0
		case "RX":
			dst, k = &p.RX, 1
		case "TX":
			dst, k = &p.TX, 2
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
		seen[k] = true
	}
	for i, k := range [...]string{"Autonegotiate", "RX", "TX"} {
		if !seen[i] {
			return topology.Pause{}, fmt.Errorf("ethtool -a: no %q line (expected `Pause parameters for IF:` with Autonegotiate/RX/TX)", k+":")
		}
	}
	return p, nil
}
