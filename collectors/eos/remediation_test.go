package eos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
)

func TestRemediation(t *testing.T) {
	r := recipe.Default()
	for id, want := range map[string][]string{
		"SW-MTU":          {"interface Ethernet1\n", "   mtu 9214"},
		"SW-TRUST":        {"   qos trust dscp"},
		"SW-DSCP-MAP":     {"qos map dscp 26 to traffic-class 3", "qos map dscp 48 to traffic-class 6"},
		"SW-PFC":          {"   priority-flow-control on", "priority-flow-control priority 3 no-drop", "no priority-flow-control priority 4 no-drop"},
		"SW-PFC-WATCHDOG": {"   priority-flow-control pause watchdog", "default timeout"},
		"SW-PAUSE":        {"   flowcontrol send off", "   flowcontrol receive off"},
		"SW-ECN":          {"   tx-queue 3\n      random-detect ecn minimum-threshold"},
		"SW-CNP-QUEUE":    {"   tx-queue 6\n      priority strict"},
		"SW-DCBX":         {"   no dcbx mode"},
		"SW-BUFFER":       {"priority-flow-control priority 3 no-drop"},
	} {
		got := Remediation(remedy.Input{CheckID: id, Port: "Ethernet1", Recipe: r})
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", id, got, w)
			}
		}
		if strings.Contains(got, "no priority-flow-control priority 3 ") {
			t.Errorf("%s turns off the RoCE priority: %q", id, got)
		}
	}
	r.DCBX = recipe.DCBXDynamic
	r.SwitchMTU = 9000
	if got := Remediation(remedy.Input{CheckID: "SW-DCBX", Port: "Ethernet1", Recipe: r}); !strings.Contains(got, "dcbx mode ieee") {
		t.Errorf("dynamic DCBX: %q", got)
	}
	if got := Remediation(remedy.Input{CheckID: "SW-MTU", Port: "Ethernet1", Recipe: r}); !strings.Contains(got, "mtu 9000") {
		t.Errorf("switch_mtu 9000: %q", got)
	}
	if Remediation(remedy.Input{CheckID: "HOST-MTU", Port: "Ethernet1", Recipe: r}) != "" {
		t.Error("host checks have no switch remediation")
	}
}
