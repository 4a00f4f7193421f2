package nxos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
)

func TestRemediation(t *testing.T) {
	r := recipe.Default()
	for id, want := range map[string][]string{
		"SW-MTU":          {"interface Ethernet1/1\n  mtu 9216"},
		"SW-TRUST":        {"match dscp 26", "set qos-group 3", "service-policy type qos input ROCE-IN"},
		"SW-DSCP-MAP":     {"match dscp 48", "set qos-group 6"},
		"SW-PFC":          {"class type network-qos c-8q-nq3", "pause pfc-cos 3", "priority-flow-control mode on"},
		"SW-PFC-WATCHDOG": {"priority-flow-control watch-dog-interval on"},
		"SW-PAUSE":        {"flowcontrol receive off", "flowcontrol send off"},
		"SW-ECN":          {"class type queuing c-out-8q-q3", "ecn"},
		"SW-CNP-QUEUE":    {"class type queuing c-out-8q-q6", "priority level 1"},
		"SW-DCBX":         {"priority-flow-control mode on"},
		"SW-BUFFER":       {"pause pfc-cos 3"},
	} {
		got := Remediation(remedy.Input{CheckID: id, Port: "Ethernet1/1", Recipe: r})
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", id, got, w)
			}
		}
	}
	r.DCBX = recipe.DCBXDynamic
	if got := Remediation(remedy.Input{CheckID: "SW-DCBX", Port: "Ethernet1/1", Recipe: r}); !strings.Contains(got, "mode auto") {
		t.Errorf("dynamic DCBX: %q", got)
	}
	if Remediation(remedy.Input{CheckID: "XFER-BW", Port: "Ethernet1/1", Recipe: r}) != "" {
		t.Error("no switch remediation for transfers")
	}
}
