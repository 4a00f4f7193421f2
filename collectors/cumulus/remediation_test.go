package cumulus

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
)

func TestRemediationDefaultRecipe(t *testing.T) {
	r := recipe.Default()
	want := map[string]string{
		"SW-MTU":          "nv set interface swp7 link mtu 9216\nnv config apply",
		"SW-TRUST":        "nv set qos roce mode lossless\nnv config apply",
		"SW-DSCP-MAP":     "nv set qos roce mode lossless\nnv config apply",
		"SW-PFC":          "nv set qos roce mode lossless\nnv config apply",
		"SW-ECN":          "nv set qos roce mode lossless\nnv config apply",
		"SW-CNP-QUEUE":    "nv set qos roce mode lossless\nnv config apply",
		"SW-BUFFER":       "nv set qos roce mode lossless\nnv config apply",
		"SW-PFC-WATCHDOG": "nv set interface swp7 qos pfc-watchdog\nnv config apply",
		"SW-PAUSE":        "nv unset interface swp7 qos link-pause\nnv config apply",
	}
	for id, w := range want {
		if got := Remediation(remedy.Input{CheckID: id, Port: "swp7", Recipe: r}); got != w {
			t.Errorf("%s = %q, want %q", id, got, w)
		}
	}
	if got := Remediation(remedy.Input{CheckID: "SW-DCBX", Port: "swp7", Recipe: r}); !strings.Contains(got, "nothing to change") {
		t.Errorf("SW-DCBX static = %q", got)
	}
	r.DCBX = recipe.DCBXDynamic
	if got := Remediation(remedy.Input{CheckID: "SW-DCBX", Port: "swp7", Recipe: r}); !strings.Contains(got, "nv set interface swp7 lldp dcbx-pfc-tlv on") {
		t.Errorf("SW-DCBX dcbx = %q", got)
	}
	if Remediation(remedy.Input{CheckID: "XFER-BW", Port: "swp7", Recipe: r}) != "" {
		t.Error("non-switch check answered")
	}
}

// A recipe off NVUE's RoCE defaults gets the documented adjustments after the profile.
func TestRemediationCustomPriority(t *testing.T) {
	r := recipe.Default()
	r.RoCEPriority, r.CNPPriority, r.CNPDSCP = 4, 7, 56
	got := Remediation(remedy.Input{CheckID: "SW-PFC", Port: "swp7", Recipe: r})
	for _, line := range []string{"nv set qos roce mode lossless", "nv set qos pfc default-global switch-priority 4",
		"nv set qos egress-queue-mapping default-global switch-priority 4 traffic-class 4",
		"nv set qos mapping default-global dscp 26 switch-priority 4", "nv set qos mapping default-global dscp 56 switch-priority 7",
		"nv set qos egress-scheduler default-global traffic-class 7 mode strict", "nv config apply"} {
		if !strings.Contains(got, line) {
			t.Errorf("missing %q in:\n%s", line, got)
		}
	}
}
