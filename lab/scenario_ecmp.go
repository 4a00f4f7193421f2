package lab

import (
	"time"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// ScenarioECMPPolarized is the healthy fabric with leaf1 hashing ECMP on the IP addresses
// only: every RoCE flow of a host pair behind it takes one spine whatever UDP source port its
// flow label gives it, so `transfer --all-paths` from a host on leaf1 never reaches the other
// spine (XFER-COVERAGE fails), while the same run from leaf2 covers both.
const ScenarioECMPPolarized = "ecmp-polarized"

func ecmpPolarized(latency time.Duration) []*device {
	devs := withSwitches(fixedFabric(), ScenarioHealthy, healthy(), latency)
	for _, d := range devs {
		if d.name == "leaf1" && d.sw != nil {
			d.sw.Update(func(s *switchstate.Switch) { s.ECMPHashIPOnly = true })
		}
	}
	return devs
}
