package cumulus

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// roceDefaults says whether the recipe is what `nv set qos roce` configures: RoCE on switch
// priority 3 (DSCP 24-31), CNP on switch priority 6 (DSCP 48-55, strict).
func roceDefaults(r recipe.Recipe) bool {
	return r.RoCEPriority == 3 && r.RoCEDSCP >= 24 && r.RoCEDSCP <= 31 &&
		r.CNPPriority == 6 && r.CNPDSCP >= 48 && r.CNPDSCP <= 55
}

// roceMode is NVUE's RoCE profile, then, when the recipe differs from its defaults, the
// adjustments NVIDIA documents for moving RoCE to another switch priority.
func roceMode(r recipe.Recipe) []string {
	lines := []string{"nv set qos roce mode lossless"}
	if roceDefaults(r) {
		return lines
	}
	return append(lines,
		fmt.Sprintf("nv set qos pfc default-global switch-priority %d", r.RoCEPriority),
		fmt.Sprintf("nv set qos egress-queue-mapping default-global switch-priority %d traffic-class %d", r.RoCEPriority, r.RoCEPriority),
		"nv set qos mapping default-global trust both",
		fmt.Sprintf("nv set qos mapping default-global dscp %d switch-priority %d", r.RoCEDSCP, r.RoCEPriority),
		fmt.Sprintf("nv set qos mapping default-global dscp %d switch-priority %d", r.CNPDSCP, r.CNPPriority),
		fmt.Sprintf("nv set qos egress-scheduler default-global traffic-class %d mode strict", r.CNPPriority))
}

// Remediation is the fix for one SW-* check on one port, as NVUE commands ending with
// `nv config apply`. The QoS fixes enable NVUE's RoCE profile, which sets trust, maps, PFC,
// ECN, the strict CNP class and the lossless pool together. An unknown check ID gives "".
func Remediation(checkID, port string, _ *topology.SwitchPort, r recipe.Recipe) string {
	apply := "nv config apply"
	var lines []string
	switch checkID {
	case "SW-MTU":
		lines = []string{fmt.Sprintf("nv set interface %s link mtu %d", port, r.SwitchMTU), apply}
	case "SW-TRUST", "SW-DSCP-MAP", "SW-PFC", "SW-ECN", "SW-CNP-QUEUE", "SW-BUFFER":
		lines = append(roceMode(r), apply)
	case "SW-PFC-WATCHDOG":
		lines = []string{fmt.Sprintf("nv set interface %s qos pfc-watchdog", port), apply}
	case "SW-PAUSE":
		lines = []string{fmt.Sprintf("nv unset interface %s qos link-pause", port), apply}
	case "SW-DCBX":
		if r.DCBX == recipe.DCBXDynamic {
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
