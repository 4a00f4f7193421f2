package linux

import (
	"fmt"

	"github.com/roceaudit/roceaudit/topology"
)

// stormTimeoutFix sets the NIC's pause-storm prevention timeout below the detection time of
// the switch watchdog it faces: 100 ms (the mlx5 "auto" value) unless the switch detects
// sooner, then the driver's minimum, 80 ms. ethtool --set-tunable does not persist: a udev
// rule or the NIC's boot configuration must repeat it.
func stormTimeoutFix(netdev string, sw *topology.SwitchPort) string {
	ms := 100
	if sw != nil && sw.WatchdogTimers.Usable() && sw.WatchdogTimers.Value.DetectionMs <= ms {
		ms = 80
	}
	return fmt.Sprintf("ethtool --set-tunable %s pfc-prevention-tout %d (and repeat it at boot: the tunable does not persist)", netdev, ms)
}
