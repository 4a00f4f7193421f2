package eos

import (
	"slices"
	"strings"
	"sync"
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
// adds its line to that port's evidence only, never to the defaults every port shares. Two
// ports with different timers, read one after the other, each carry their own timer only,
// and a third port on the defaults carries neither.
func TestWatchdogDefaultsParsedOnce(t *testing.T) {
	const (
		fast = "priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1"
		slow = "priority-flow-control pause watchdog port timer timeout 0.7 polling-interval auto recovery-time 3"
	)
	rc, err := ParseRunningConfig("priority-flow-control pause watchdog default recovery-time 1.5\n" +
		"priority-flow-control pause watchdog default timeout 0.2\n" +
		"priority-flow-control pause watchdog action drop\n" +
		"qos profile FAST\n   " + fast + "\n" +
		"qos profile SLOW\n   " + slow + "\n" +
		"interface Ethernet1\n   service-profile FAST\ninterface Ethernet2\n   service-profile SLOW\n" +
		"interface Ethernet3\n   priority-flow-control pause watchdog\n")
	if err != nil {
		t.Fatal(err)
	}
	d := rc.Watchdog
	defaults := []string{
		"priority-flow-control pause watchdog action drop",
		"priority-flow-control pause watchdog default recovery-time 1.5",
		"priority-flow-control pause watchdog default timeout 0.2",
	}
	if d.Err != nil || d.Action != "drop" || d.TimeoutMs != 200 || d.RecoveryMs != 1500 || !slices.Equal(d.Lines, defaults) {
		t.Fatalf("defaults %+v", d)
	}
	for _, tc := range []struct {
		port         string
		want         topology.WatchdogTimers
		own, notOurs []string // timer lines its evidence must and must not hold
	}{
		{"Ethernet1", topology.WatchdogTimers{DetectionMs: 50, RestorationMs: 1000, Action: "drop"}, []string{fast}, []string{slow}},
		{"Ethernet2", topology.WatchdogTimers{DetectionMs: 700, RestorationMs: 3000, Action: "drop"}, []string{slow}, []string{fast}},
		{"Ethernet3", topology.WatchdogTimers{DetectionMs: 200, RestorationMs: 1500, Action: "drop"}, nil, []string{fast, slow}},
	} {
		eff, err := rc.EffectiveQoS(rc.Interfaces[tc.port])
		if err != nil {
			t.Fatal(err)
		}
		got := watchdogTimers(rc, eff, tc.port)
		if got.Status != topology.FactKnown || got.Value != tc.want {
			t.Errorf("%s: got %v %+v, want %+v", tc.port, got.Status, got.Value, tc.want)
		}
		for _, l := range append(slices.Clone(defaults), tc.own...) {
			if !strings.Contains(got.Source.Excerpt, l) {
				t.Errorf("%s's evidence lacks %q: %q", tc.port, l, got.Source.Excerpt)
			}
		}
		for _, l := range tc.notOurs {
			if strings.Contains(got.Source.Excerpt, l) {
				t.Errorf("%s's evidence holds another port's timer %q: %q", tc.port, l, got.Source.Excerpt)
			}
		}
	}
	if !slices.Equal(rc.Watchdog.Lines, defaults) {
		t.Errorf("a port timer leaked into the defaults: %q", rc.Watchdog.Lines)
	}
}

// The defaults' lines are shared by every port of the running-config, so ports read at once
// must not append their timer into one backing array (under -race this fails without the copy).
func TestWatchdogTimersConcurrentPorts(t *testing.T) {
	// Three default lines: appended one by one, their slice has room for a fourth.
	rc, err := ParseRunningConfig("priority-flow-control pause watchdog action drop\n" +
		"priority-flow-control pause watchdog default timeout 0.2\n" +
		"priority-flow-control pause watchdog default recovery-time 1.5\n" +
		"interface Ethernet1\n   priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1\n" +
		"interface Ethernet2\n   priority-flow-control pause watchdog port timer timeout 0.7 polling-interval auto recovery-time 3\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Ethernet1": "timeout 0.05", "Ethernet2": "timeout 0.7"}
	var wg sync.WaitGroup
	for port, own := range want {
		eff, err := rc.EffectiveQoS(rc.Interfaces[port])
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if ex := watchdogTimers(rc, eff, port).Source.Excerpt; !strings.Contains(ex, own) {
					t.Errorf("%s's evidence lacks its %s: %q", port, own, ex)
					return
				}
			}
		}()
	}
	wg.Wait()
}
