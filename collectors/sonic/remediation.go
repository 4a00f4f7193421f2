package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the fix for one SW-* check on one port, in SONiC's own terms: `config`
// commands where sonic-utilities has one, otherwise CONFIG_DB writes with sonic-db-cli, then
// `config save` so the change survives a reload. DSCP fixes edit the map the port really binds
// (facts.DSCPMap), never a stock name that may not exist; the CNP queue is the one the CNP
// DSCP lands in when facts say so. An unknown check ID gives "".
func Remediation(checkID, port string, facts *topology.SwitchPort, r recipe.Recipe) string {
	save := "sudo config save -y"
	var lines []string
	switch checkID {
	case "SW-MTU":
		lines = []string{fmt.Sprintf("sudo config interface mtu %s %d", port, r.SwitchMTU), save}
	case "SW-TRUST":
		lines = append(newDSCPMap(port, r), save)
	case "SW-DSCP-MAP":
		lines = append(editDSCPMap(port, facts, r), save)
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
			db(fmt.Sprintf("QUEUE|%s|%d", port, cnpQueue(facts, r)), "scheduler", "scheduler.strict"),
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
		return bufferRemediation(checkID, port, facts, r)
	}
	return strings.Join(lines, "\n")
}

func db(key, field, value string) string {
	return fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET '%s' %s %s", key, field, value)
}

// newMapName is the DSCP_TO_TC_MAP a fix creates for a port that binds none.
const newMapName = "ROCE"

// newDSCPMap creates a DSCP_TO_TC_MAP with the recipe's DSCPs and binds it to port.
func newDSCPMap(port string, r recipe.Recipe) []string {
	key := "DSCP_TO_TC_MAP|" + newMapName
	return []string{
		fmt.Sprintf("# %s binds no DSCP_TO_TC_MAP: create one (add every other DSCP the fabric uses) and bind it;", port),
		fmt.Sprintf("# CNPs get class %d of their own, whose queue must be strict priority", r.CNPPriority),
		db(key, fmt.Sprint(r.RoCEDSCP), fmt.Sprint(r.RoCEPriority)),
		db(key, fmt.Sprint(r.CNPDSCP), fmt.Sprint(r.CNPPriority)),
		db("PORT_QOS_MAP|"+port, "dscp_to_tc_map", newMapName),
	}
}

// editDSCPMap fixes the entries of the map the port binds: the RoCE DSCP to the RoCE class,
// and the CNP DSCP to a class of its own unless it already has one. Without facts (a fix shown
// without a device) the map is looked up when the fix runs.
func editDSCPMap(port string, facts *topology.SwitchPort, r recipe.Recipe) []string {
	switch {
	case facts == nil:
		key := `"DSCP_TO_TC_MAP|$MAP"`
		hset := func(f, v int) string { return fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET %s %d %d", key, f, v) }
		return []string{
			fmt.Sprintf("# in the DSCP_TO_TC_MAP %s binds (on stock SONiC AZURE, where DSCP 26 goes to lossy TC 1)", port),
			fmt.Sprintf("MAP=$(sonic-db-cli CONFIG_DB HGET 'PORT_QOS_MAP|%s' dscp_to_tc_map)", port),
			hset(r.RoCEDSCP, r.RoCEPriority), hset(r.CNPDSCP, r.CNPPriority)}
	case facts.DSCPMap == "":
		return newDSCPMap(port, r)
	}
	key := "DSCP_TO_TC_MAP|" + facts.DSCPMap
	out := []string{fmt.Sprintf("# in DSCP_TO_TC_MAP|%s, the map %s binds", facts.DSCPMap, port),
		db(key, fmt.Sprint(r.RoCEDSCP), fmt.Sprint(r.RoCEPriority))}
	if tc, ok := facts.DSCPToTC.Value[r.CNPDSCP]; !facts.DSCPToTC.Usable() || !ok || tc == r.RoCEPriority {
		out = append(out, fmt.Sprintf("# CNPs need a class of their own (here %d), whose queue must be strict priority", r.CNPPriority),
			db(key, fmt.Sprint(r.CNPDSCP), fmt.Sprint(r.CNPPriority)))
	}
	return out
}

// cnpQueue is the queue the CNP DSCP lands in on the port, from its maps; the recipe's CNP
// priority when they are not known.
func cnpQueue(facts *topology.SwitchPort, r recipe.Recipe) int {
	if facts == nil || !facts.DSCPToTC.Usable() {
		return r.CNPPriority
	}
	tc, ok := facts.DSCPToTC.Value[r.CNPDSCP]
	if !ok || tc == r.RoCEPriority {
		return r.CNPPriority
	}
	if q, ok := facts.TCToQueue.Value[tc]; ok && facts.TCToQueue.Usable() {
		return q
	}
	return tc
}
