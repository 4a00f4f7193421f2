package cumulus

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/example"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// roceDefaults says whether the recipe, with CNPs in the class the switch gives them, is what
// `nv set qos roce` configures: RoCE on switch priority 3 (DSCP 24-31), CNP on switch priority
// 6 (DSCP 48-55, strict).
func roceDefaults(in remedy.Input) bool {
	r := in.Recipe
	cnp, _ := in.CNPClass()
	return r.RoCEPriority == 3 && r.RoCEDSCP >= 24 && r.RoCEDSCP <= 31 &&
		cnp == 6 && r.CNPDSCP >= 48 && r.CNPDSCP <= 55
}

// roceMode is NVUE's RoCE profile, then, when the recipe differs from its defaults, the
// adjustments NVIDIA documents for moving RoCE to another switch priority. CNPs keep the
// switch priority the switch already maps their DSCP to, made strict.
func roceMode(in remedy.Input) []string {
	r := in.Recipe
	lines := []string{"nv set qos roce mode lossless"}
	if roceDefaults(in) {
		return lines
	}
	cnp, _ := in.CNPClass()
	return append(lines,
		fmt.Sprintf("nv set qos pfc default-global switch-priority %d", r.RoCEPriority),
		fmt.Sprintf("nv set qos egress-queue-mapping default-global switch-priority %d traffic-class %d", r.RoCEPriority, r.RoCEPriority),
		"nv set qos mapping default-global trust both",
		fmt.Sprintf("nv set qos mapping default-global dscp %d switch-priority %d", r.RoCEDSCP, r.RoCEPriority),
		fmt.Sprintf("nv set qos mapping default-global dscp %d switch-priority %d", r.CNPDSCP, cnp),
		fmt.Sprintf("nv set qos egress-scheduler default-global traffic-class %d mode strict", in.CNPQueue()))
}

// Remediation is the fix for one SW-* check on one port, as NVUE commands ending with
// `nv config apply`. The QoS fixes enable NVUE's RoCE profile, which sets trust, maps, PFC,
// ECN, the strict CNP class and the lossless pool together. An unknown check ID gives "".
func Remediation(in remedy.Input) string {
	apply, port := "nv config apply", in.Port
	var lines []string
	switch in.CheckID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		lines = []string{fmt.Sprintf("nv set interface %s link mtu %d", port, in.Recipe.SwitchMTU), apply}
	case "SW-TRUST", "SW-DSCP-MAP", "SW-PFC", "LINK-PFC", "SW-ECN", "SW-CNP-QUEUE", "SW-BUFFER":
		lines = append(roceMode(in), apply)
	case "SW-PFC-WATCHDOG":
		lines = []string{fmt.Sprintf("nv set interface %s qos pfc-watchdog", port), apply}
	case "SW-PAUSE":
		lines = []string{fmt.Sprintf("nv unset interface %s qos link-pause", port), apply}
	case "SW-DCBX", "PATH-DCBX-MIX":
		if in.Recipe.DCBX == recipe.DCBXDynamic {
			lines = []string{
				"# Cumulus never negotiates DCBX; hosts can only learn from the TLVs it transmits:",
				fmt.Sprintf("nv set interface %s lldp dcbx-pfc-tlv on", port),
				fmt.Sprintf("nv set interface %s lldp dcbx-ets-config-tlv on", port),
				"# (CL 5.15 and later spell the values enabled/disabled)",
				apply}
		} else {
			lines = []string{"# nothing to change on the switch: Cumulus configures PFC and ETS locally and never " +
				"negotiates DCBX; configure the hosts statically (recipe dcbx: static)"}
		}
	default:
		return ""
	}
	return strings.Join(lines, "\n")
}

// exampleSwitch is the facts explain shows the Cumulus fixes for: generic QoS, MTU 1500.
func exampleSwitch() *topology.SwitchPort {
	return example.Switch("swp1", topology.MTU{Configured: 1500, Kind: "frame", Normalized: 1500})
}
