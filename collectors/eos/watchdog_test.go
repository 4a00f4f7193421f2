package eos

import (
	"strings"
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

// The global watchdog lines are read once, when the running-config is parsed; a port timer
// adds its line to that port's evidence only, never to the defaults every port shares.
func TestWatchdogDefaultsParsedOnce(t *testing.T) {
	rc, err := ParseRunningConfig("priority-flow-control pause watchdog default recovery-time 1.5\n" +
		"priority-flow-control pause watchdog default timeout 0.2\n" +
		"priority-flow-control pause watchdog action drop\n" +
		"qos profile FAST\n   priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1\n" +
		"interface Ethernet1\n   service-profile FAST\ninterface Ethernet2\n   priority-flow-control pause watchdog\n")
	if err != nil {
		t.Fatal(err)
	}
	d := rc.Watchdog
	if d.Err != nil || d.Action != "drop" || d.TimeoutMs != 200 || d.RecoveryMs != 1500 || len(d.Lines) != 3 ||
		d.Lines[0] != "priority-flow-control pause watchdog action drop" {
		t.Fatalf("defaults %+v", d)
	}
	var got [2]topology.Fact[topology.WatchdogTimers]
	for i, port := range []string{"Ethernet1", "Ethernet2"} {
		eff, err := rc.EffectiveQoS(rc.Interfaces[port])
		if err != nil {
			t.Fatal(err)
		}
		got[i] = watchdogTimers(rc, eff, port)
	}
	if got[0].Value.DetectionMs != 50 || got[1].Value.DetectionMs != 200 || got[1].Value.RestorationMs != 1500 {
		t.Errorf("timers: %+v, %+v", got[0].Value, got[1].Value)
	}
	// Ethernet1's evidence names its port timer, so the check below on Ethernet2 can fail.
	if !strings.Contains(got[0].Source.Excerpt, "port timer timeout 0.05") {
		t.Errorf("Ethernet1's evidence lacks its port timer: %q", got[0].Source.Excerpt)
	}
	if strings.Contains(got[1].Source.Excerpt, "port timer") || len(rc.Watchdog.Lines) != 3 {
		t.Errorf("Ethernet1's port timer leaked into the defaults: %q", got[1].Source.Excerpt)
	}
}
