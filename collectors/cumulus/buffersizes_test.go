package cumulus

import (
	"testing"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// The skip reason says what the switch's mode shows: RoCE mode sizes the headroom itself; the
// generic PFC profile shows bytes but not what the formula and the trigger need.
func TestBufferSizeReasonFollowsTheMode(t *testing.T) {
	for scenario, want := range map[string]string{"healthy": noBufferSizes, "broken": noBufferSizesGeneric} {
		dev, err := collect(t, &fakeRunner{Scenario: scenario}, inventory.DeviceSpec{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range dev.Switch.Ports {
			if p.Headroom.Status != topology.FactUnsupported || p.Headroom.Reason != want || p.ECNOrder.Reason != want {
				t.Errorf("%s %s: headroom %v %q, ECN order %q; want %q", scenario, p.Name, p.Headroom.Status, p.Headroom.Reason, p.ECNOrder.Reason, want)
			}
		}
	}
}
