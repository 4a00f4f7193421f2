package sonic

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
)

func TestRemediationCoversEverySwitchCheck(t *testing.T) {
	r := recipe.Default()
	r.RoCEPriority, r.CNPPriority, r.RoCEDSCP, r.SwitchMTU = 4, 7, 30, 9100
	want := map[string][]string{
		"SW-MTU":          {"sudo config interface mtu Ethernet8 9100"},
		"SW-TRUST":        {"HSET 'PORT_QOS_MAP|Ethernet8' dscp_to_tc_map AZURE"},
		"SW-DSCP-MAP":     {"HSET 'DSCP_TO_TC_MAP|AZURE' 30 4", "HSET 'DSCP_TO_TC_MAP|AZURE' 48 7"},
		"SW-PFC":          {"sudo config interface pfc priority Ethernet8 4 on", "sudo config interface pfc asymmetric Ethernet8 off"},
		"SW-PFC-WATCHDOG": {"sudo config pfcwd start --action drop Ethernet8 200 --restoration-time 200", "pfcwd_sw_enable 4"},
		"SW-PAUSE":        {"no 802.3x"},
		"SW-ECN":          {"HSET 'QUEUE|Ethernet8|4' wred_profile AZURE_LOSSLESS", "ecn ecn_all"},
		"SW-CNP-QUEUE":    {"HSET 'QUEUE|Ethernet8|7' scheduler scheduler.strict", "type STRICT"},
		"SW-DCBX":         {"no DCBX"},
		"SW-BUFFER":       {"sudo config interface buffer priority-group lossless add Ethernet8 4"},
	}
	for id, parts := range want {
		got := Remediation(id, "Ethernet8", r)
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s: %q lacks %q", id, got, p)
			}
		}
		if id != "SW-PAUSE" && id != "SW-DCBX" && !strings.Contains(got, "sudo config save -y") {
			t.Errorf("%s: not saved: %q", id, got)
		}
	}
	if got := Remediation("HOST-PFC", "Ethernet8", r); got != "" {
		t.Errorf("non-switch check: %q", got)
	}
}
