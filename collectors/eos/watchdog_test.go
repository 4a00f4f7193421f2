package eos

import (
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func TestWatchdogTimers(t *testing.T) {
	const global = "priority-flow-control pause watchdog action drop\n" +
		"priority-flow-control pause watchdog default timeout 0.2\n" +
		"priority-flow-control pause watchdog default recovery-time 1.5\n"
	const profile = "qos profile ROCE\n   priority-flow-control pause watchdog\n" +
		"   priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1.11 forced\n"
	for _, tc := range []struct {
		name, cfg string
		status    topology.FactStatus
		want      topology.WatchdogTimers
	}{
		{"global defaults", global + "interface Ethernet1\n   priority-flow-control pause watchdog\n",
			topology.FactKnown, topology.WatchdogTimers{DetectionMs: 200, RestorationMs: 1500, Action: "drop"}},
		{"the profile's port timer wins", global + profile + "interface Ethernet1\n   service-profile ROCE\n",
			topology.FactKnown, topology.WatchdogTimers{DetectionMs: 50, RestorationMs: 1110, Action: "drop"}},
		{"no timeout anywhere", "interface Ethernet1\n   priority-flow-control pause watchdog\n", topology.FactUnsupported, topology.WatchdogTimers{}},
		{"a timeout that is not seconds", "priority-flow-control pause watchdog default timeout soon\ninterface Ethernet1\n",
			topology.FactUnknown, topology.WatchdogTimers{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := ParseRunningConfig(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			eff, err := rc.EffectiveQoS(rc.Interfaces["Ethernet1"])
			if err != nil {
				t.Fatal(err)
			}
			got := watchdogTimers(rc, eff, "Ethernet1")
			if got.Status != tc.status || got.Value != tc.want {
				t.Errorf("got %v %+v (%s; %+v), want %v %+v", got.Status, got.Value, got.Reason, got.Source, tc.status, tc.want)
			}
		})
	}
}
