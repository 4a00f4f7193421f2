package sonic

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func TestPortWatchdogTimers(t *testing.T) {
	db := mustDB(t, `{
    "PFC_WD": {"Ethernet0": {"action": "drop", "detection_time": "400", "restoration_time": "800"},
               "Ethernet4": {"action": "alert", "detection_time": "150"},
               "Ethernet8": {"action": "drop", "detection_time": "fast"},
               "GLOBAL": {"POLL_INTERVAL": "200"}},
    "PORT": {"Ethernet0": {"mtu": "9100"}, "Ethernet4": {"mtu": "9100"}, "Ethernet8": {"mtu": "9100"}, "Ethernet12": {"mtu": "9100"}}
}`)
	for _, tc := range []struct {
		port string
		want topology.WatchdogTimers
	}{
		{"Ethernet0", topology.WatchdogTimers{DetectionMs: 400, RestorationMs: 800, Action: "drop"}},
		{"Ethernet4", topology.WatchdogTimers{DetectionMs: 150, Action: "alert"}},
		{"Ethernet12", topology.WatchdogTimers{}}, // not started: no timers
	} {
		got, ex, err := PortWatchdogTimers(db, tc.port)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.port, got, err, tc.want)
		}
		if !strings.Contains(ex, "PFC_WD|"+tc.port) {
			t.Errorf("%s: excerpt %q does not quote the PFC_WD row", tc.port, ex)
		}
	}
	if _, _, err := PortWatchdogTimers(db, "Ethernet8"); err == nil || !strings.Contains(err.Error(), "detection_time") {
		t.Errorf("a detection_time that is not a number: got %v, want an error naming the field", err)
	}
}
