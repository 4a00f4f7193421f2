package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
)

// Remediation is the fix for one SW-* check on one port, in SONiC's own terms: `config`
// commands where sonic-utilities has one, otherwise CONFIG_DB writes with sonic-db-cli, then
// `config save` so the change survives a reload. Queue numbers assume the stock
// TC_TO_QUEUE_MAP (TC n -> queue n). An unknown check ID gives "".
func Remediation(checkID string, port string, r recipe.Recipe) string {
	db := func(key, field, value string) string {
		return fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET '%s' %s %s", key, field, value)
	}
	save := "sudo config save -y"
	var lines []string
	switch checkID {
	case "SW-MTU":
		lines = []string{fmt.Sprintf("sudo config interface mtu %s %d", port, r.SwitchMTU), save}
	case "SW-TRUST":
		lines = []string{
			"# bind a DSCP to TC map (AZURE is the stock one) so the port classifies by DSCP",
			db("PORT_QOS_MAP|"+port, "dscp_to_tc_map", "AZURE"),
			save}
	case "SW-DSCP-MAP":
		lines = []string{
			"# in the DSCP_TO_TC_MAP the port binds (AZURE on stock SONiC, where DSCP 26 goes to lossy TC 1)",
			db("DSCP_TO_TC_MAP|AZURE", fmt.Sprint(r.RoCEDSCP), fmt.Sprint(r.RoCEPriority)),
			db("DSCP_TO_TC_MAP|AZURE", fmt.Sprint(r.CNPDSCP), fmt.Sprint(r.CNPPriority)),
			db("PORT_QOS_MAP|"+port, "dscp_to_tc_map", "AZURE"),
			save}
	case "SW-PFC":
		lines = []string{
			fmt.Sprintf("sudo config interface pfc priority %s %d on", port, r.RoCEPriority),
			fmt.Sprintf("# and for every other priority `show pfc priority %s` lists:", port),
			fmt.Sprintf("sudo config interface pfc priority %s <priority> off", port),
			fmt.Sprintf("sudo config interface pfc asymmetric %s off", port),
			save}
	case "SW-PFC-WATCHDOG":
		lines = []string{
			fmt.Sprintf("sudo config pfcwd start --action drop %s 200 --restoration-time 200", port),
			db("PORT_QOS_MAP|"+port, "pfcwd_sw_enable", fmt.Sprint(r.RoCEPriority)),
			"sudo config pfcwd counter_poll enable",
			save}
	case "SW-PAUSE":
		lines = []string{"# nothing to change: community SONiC has no 802.3x flow-control setting"}
	case "SW-ECN":
		lines = []string{
			"# a WRED profile that marks green packets, bound to the RoCE queue",
			db("WRED_PROFILE|AZURE_LOSSLESS", "ecn", "ecn_all"),
			db(fmt.Sprintf("QUEUE|%s|%d", port, r.RoCEPriority), "wred_profile", "AZURE_LOSSLESS"),
			save}
	case "SW-CNP-QUEUE":
		lines = []string{
			"# a strict-priority scheduler, bound to the CNP queue",
			db("SCHEDULER|scheduler.strict", "type", "STRICT"),
			db(fmt.Sprintf("QUEUE|%s|%d", port, r.CNPPriority), "scheduler", "scheduler.strict"),
			save}
	case "SW-DCBX":
		lines = []string{"# nothing to change on the switch: community SONiC has no DCBX; configure the hosts " +
			"statically (recipe dcbx: static) with the same PFC priority"}
	case "SW-BUFFER":
		lines = []string{
			"# dynamic buffer model (DEVICE_METADATA|localhost buffer_model=dynamic):",
			fmt.Sprintf("sudo config interface buffer priority-group lossless add %s %d", port, r.RoCEPriority),
			"# traditional model: buffermgrd creates the lossless PG from pfc_enable, speed and cable length:",
			fmt.Sprintf("sudo config interface pfc priority %s %d on", port, r.RoCEPriority),
			save}
	default:
		return ""
	}
	return strings.Join(lines, "\n")
}
