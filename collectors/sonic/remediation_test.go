package sonic

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

func TestRemediationCoversEverySwitchCheck(t *testing.T) {
	r := recipe.Default()
	r.RoCEPriority, r.CNPPriority, r.RoCEDSCP, r.SwitchMTU = 4, 7, 30, 9100
	want := map[string][]string{
		"SW-MTU":          {"sudo config interface mtu Ethernet8 9100"},
		"SW-TRUST":        {"HSET 'DSCP_TO_TC_MAP|ROCE' 30 4", "HSET 'DSCP_TO_TC_MAP|ROCE' 48 7", "HSET 'PORT_QOS_MAP|Ethernet8' dscp_to_tc_map ROCE"},
		"SW-DSCP-MAP":     {"HGET 'PORT_QOS_MAP|Ethernet8' dscp_to_tc_map", `HSET "DSCP_TO_TC_MAP|$MAP" 30 4`, `HSET "DSCP_TO_TC_MAP|$MAP" 48 7`},
		"SW-PFC":          {"sudo config interface pfc priority Ethernet8 4 on", "sudo config interface pfc asymmetric Ethernet8 off"},
		"SW-PFC-WATCHDOG": {"sudo config pfcwd start --action drop Ethernet8 200 --restoration-time 200", "pfcwd_sw_enable 4"},
		"SW-PAUSE":        {"no 802.3x"},
		"SW-ECN":          {"HSET 'QUEUE|Ethernet8|4' wred_profile AZURE_LOSSLESS", "ecn ecn_all"},
		"SW-CNP-QUEUE":    {"HSET 'QUEUE|Ethernet8|7' scheduler scheduler.strict", "type STRICT"},
		"SW-DCBX":         {"no DCBX"},
		"SW-BUFFER":       {"sudo config interface buffer priority-group lossless add Ethernet8 4"},
	}
	for id, parts := range want {
		got := Remediation(remedy.Input{CheckID: id, Port: "Ethernet8", Recipe: r})
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s: %q lacks %q", id, got, p)
			}
		}
		if id != "SW-PAUSE" && id != "SW-DCBX" && !strings.Contains(got, "sudo config save -y") {
			t.Errorf("%s: not saved: %q", id, got)
		}
	}
	if got := Remediation(remedy.Input{CheckID: "HOST-PFC", Port: "Ethernet8", Recipe: r}); got != "" {
		t.Errorf("non-switch check: %q", got)
	}
}

// The DSCP fix edits the map the port binds (its facts say which), never a stock name: a
// pasted AZURE entry would create a two-entry map and move the port onto it.
func TestDSCPMapFixNamesTheBoundMap(t *testing.T) {
	r := recipe.Default()
	e := topology.Evidence{Command: CmdRunningConfig}
	azure := map[int]int{3: 3, 4: 4, 26: 1, 46: 5, 48: 6}
	cases := []struct {
		name      string
		facts     *topology.SwitchPort
		want, not []string
	}{
		{"bound RDMA_MAP, CNP already in class 6", &topology.SwitchPort{DSCPMap: "RDMA_MAP", DSCPToTC: topology.Known(azure, e)},
			[]string{"HSET 'DSCP_TO_TC_MAP|RDMA_MAP' 26 3"}, []string{"AZURE", "48", "PORT_QOS_MAP"}},
		{"bound AZURE, CNP in the RoCE class", &topology.SwitchPort{DSCPMap: "AZURE", DSCPToTC: topology.Known(map[int]int{26: 1, 48: 3}, e)},
			[]string{"HSET 'DSCP_TO_TC_MAP|AZURE' 26 3", "HSET 'DSCP_TO_TC_MAP|AZURE' 48 6"}, []string{"PORT_QOS_MAP"}},
		{"no map bound", &topology.SwitchPort{DSCPToTC: topology.Known(map[int]int{}, e)},
			[]string{"binds no DSCP_TO_TC_MAP", "HSET 'DSCP_TO_TC_MAP|ROCE' 26 3", "HSET 'PORT_QOS_MAP|Ethernet8' dscp_to_tc_map ROCE"}, []string{"AZURE"}},
	}
	for _, tc := range cases {
		got := Remediation(remedy.Input{CheckID: "SW-DSCP-MAP", Port: "Ethernet8", Switch: tc.facts, Recipe: r})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q names %q", tc.name, got, n)
			}
		}
	}
	// SW-CNP-QUEUE binds the strict scheduler to the queue DSCP 48 lands in (TC 5 -> queue 5 here).
	p := &topology.SwitchPort{DSCPToTC: topology.Known(map[int]int{48: 5}, e), TCToQueue: topology.Known(map[int]int{5: 5}, e)}
	if got := Remediation(remedy.Input{CheckID: "SW-CNP-QUEUE", Port: "Ethernet8", Switch: p, Recipe: r}); !strings.Contains(got, "'QUEUE|Ethernet8|5' scheduler scheduler.strict") {
		t.Errorf("CNP queue fix %q", got)
	}
}
