package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func TestLinkPFCStorm(t *testing.T) {
	wd := func(det, rest int) topology.Fact[topology.WatchdogTimers] {
		return topology.Known(topology.WatchdogTimers{DetectionMs: det, RestorationMs: rest, Action: "drop"}, src("show running-config"))
	}
	for _, tc := range []struct {
		name    string
		nic     topology.Fact[int]
		timers  topology.Fact[topology.WatchdogTimers]
		noWD    bool
		status  Status
		message string
	}{
		{"NIC first", topology.Known(100, src("ethtool")), wd(200, 200), false, Pass, ""},
		{"switch first, NIC within its cycle", topology.Known(100, src("ethtool")), wd(50, 1100), false, Pass, "acts first (after 50 ms)"},
		{"mlx5 default against SONiC's", topology.Known(8000, src("ethtool")), wd(200, 200), false, Warn, "restarts in the fabric about 19 times"},
		{"switch faster than any NIC", topology.Known(8000, src("ethtool")), wd(50, 1100), false, Warn, "about 6 times"},
		{"NIC prevention off", topology.Known(0, src("ethtool")), wd(200, 200), false, Skip, "HOST-PFC-STORM"},
		{"no switch watchdog", topology.Known(8000, src("ethtool")), wd(200, 200), true, Skip, "SW-PFC-WATCHDOG"},
		{"timers not read", topology.Known(8000, src("ethtool")),
			topology.Unsupported(topology.WatchdogTimers{}, "not in the configuration", src("show")), false, Skip, "not in the configuration"},
		{"NIC timeout unreadable", topology.Unknown[int](topology.Evidence{Command: "ethtool", Error: "ssh: connection lost"}), wd(200, 200), false, Error, ""},
		// the collector's word that the driver has no tunable; an unread one above is an error
		{"driver without the tunable", topology.Unsupported(0, "the driver has no pfc-prevention-tout tunable",
			topology.Evidence{Command: "ethtool"}), wd(200, 200), false, Skip, "the driver has no pfc-prevention-tout tunable"},
		{"NIC timeout unread with ethtool's words", topology.Unknown[int](topology.Evidence{Command: "ethtool",
			Error: "exit 255: pfc-prevention-tout: Cannot get tunable"}), wd(200, 200), false, Error, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := healthySwitchPort("Ethernet1/1")
			p.WatchdogTimers = tc.timers
			if tc.noWD {
				p.PFCWatchdog = topology.Known(map[int]bool{3: false}, src("show"))
			}
			snap := switchSnap(p)
			snap.Devices[0].Host.Ports[0].PFCPreventionMs = tc.nic
			var got *Result
			for _, r := range Run(snap, Options{Remedy: platformFix}) {
				if r.Check == "LINK-PFC-STORM" && r.Device == "gpu01" {
					if got != nil {
						t.Fatalf("two results: %+v and %+v", *got, r)
					}
					got = &r
				}
			}
			if got == nil || got.Status != tc.status || !strings.Contains(got.Message, tc.message) {
				t.Fatalf("got %+v, want %s with %q", got, tc.status, tc.message)
			}
			if got.Peer != "leaf1:Ethernet1/1" || got.Device != "gpu01" {
				t.Errorf("the result names %s - %s, want gpu01 - leaf1:Ethernet1/1", got.Device, got.Peer)
			}
			if tc.status != Warn {
				return
			}
			for _, want := range []string{"gpu01:ens1f0np0 pfc-prevention-tout 8000 ms", "leaf1:Ethernet1/1 watchdog detection"} {
				if !strings.Contains(got.Actual, want) {
					t.Errorf("actual %q lacks %q", got.Actual, want)
				}
			}
			for _, want := range []string{"on gpu01 ens1f0np0:\nlinux fix for LINK-PFC-STORM", "on leaf1 Ethernet1/1:\neos fix for LINK-PFC-STORM"} {
				if !strings.Contains(got.Remediation, want) {
					t.Errorf("remediation %q lacks each side's fix %q", got.Remediation, want)
				}
			}
		})
	}
}

// Two switches have no NIC between them: nothing to compare.
func TestLinkPFCStormSkipsSwitchLinks(t *testing.T) {
	v := linkPFCStorm().link(switchSnap(healthySwitchPort("x")).Recipe,
		end{sw: healthySwitchPort("Ethernet1")}, end{sw: healthySwitchPort("Ethernet2")})
	if v.status != Skip {
		t.Errorf("switch-switch link: %+v", v)
	}
}
