package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/example"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the fix for one SW-* check on one port, in SONiC's own terms: `config`
// commands where sonic-utilities has one, otherwise CONFIG_DB writes with sonic-db-cli, then
// `config save` so the change survives a reload. DSCP fixes edit the map the port really binds
// (facts.DSCPMap), never a stock name that may not exist; the CNP queue is the one the CNP
// DSCP lands in when facts say so, and PFC is turned off on exactly the extra priorities the
// facts show. An unknown check ID gives "".
func Remediation(in remedy.Input) string {
	save, port, r := "sudo config save -y", in.Port, in.Recipe
	var lines []string
	switch in.CheckID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		lines = []string{fmt.Sprintf("sudo config interface mtu %s %d", port, r.SwitchMTU), save}
	case "SW-TRUST":
		lines = append(newDSCPMap(in), save)
	case "SW-DSCP-MAP":
		lines = append(editDSCPMap(in), save)
	case "SW-PFC", "LINK-PFC":
		lines = []string{fmt.Sprintf("sudo config interface pfc priority %s %d on", port, r.RoCEPriority)}
		for _, p := range in.ExtraPFC() {
			lines = append(lines, fmt.Sprintf("sudo config interface pfc priority %s %d off", port, p))
		}
		lines = append(lines, fmt.Sprintf("sudo config interface pfc asymmetric %s off", port), save)
	case "LINK-PFC-STORM":
		if cmd := watchdogRestorationFix(in); cmd != "" {
			lines = []string{cmd, save}
		}
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
			db(fmt.Sprintf("QUEUE|%s|%d", port, in.RoCEQueue()), "wred_profile", "AZURE_LOSSLESS"),
			save}
	case "SW-CNP-QUEUE":
		lines = []string{
			"# a strict-priority scheduler, bound to the CNP queue",
			db("SCHEDULER|scheduler.strict", "type", "STRICT"),
			db(fmt.Sprintf("QUEUE|%s|%d", port, in.CNPQueue()), "scheduler", "scheduler.strict"),
			save}
	case "SW-DCBX", "PATH-DCBX-MIX":
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
		return bufferRemediation(in.CheckID, port, in.Switch, r)
	}
	return strings.Join(lines, "\n")
}

func db(key, field, value string) string {
	return fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET '%s' %s %s", key, field, value)
}

// newMapName is the DSCP_TO_TC_MAP a fix creates for a port that binds none.
const newMapName = "ROCE"

// newDSCPMap creates a DSCP_TO_TC_MAP with the recipe's DSCPs and binds it to the port.
func newDSCPMap(in remedy.Input) []string {
	key, r := "DSCP_TO_TC_MAP|"+newMapName, in.Recipe
	cnp, _ := in.CNPClass()
	return []string{
		fmt.Sprintf("# %s binds no DSCP_TO_TC_MAP: create one (add every other DSCP the fabric uses) and bind it;", in.Port),
		fmt.Sprintf("# CNPs get class %d of their own, whose queue must be strict priority", cnp),
		db(key, fmt.Sprint(r.RoCEDSCP), fmt.Sprint(in.RoCEClass())),
		db(key, fmt.Sprint(r.CNPDSCP), fmt.Sprint(cnp)),
		db("PORT_QOS_MAP|"+in.Port, "dscp_to_tc_map", newMapName),
	}
}

// editDSCPMap fixes the entries of the map the port binds: the RoCE DSCP to the RoCE class,
// and the CNP DSCP to a class of its own unless it already has one. Without facts (a port
// that was not read) the map is looked up when the fix runs.
func editDSCPMap(in remedy.Input) []string {
	r, port, facts := in.Recipe, in.Port, in.Switch
	cnp, mapped := in.CNPClass()
	switch {
	case facts == nil:
		key := `"DSCP_TO_TC_MAP|$MAP"`
		hset := func(f, v int) string { return fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET %s %d %d", key, f, v) }
		return []string{
			fmt.Sprintf("# in the DSCP_TO_TC_MAP %s binds", port),
			fmt.Sprintf("MAP=$(sonic-db-cli CONFIG_DB HGET 'PORT_QOS_MAP|%s' dscp_to_tc_map)", port),
			hset(r.RoCEDSCP, in.RoCEClass()), hset(r.CNPDSCP, cnp)}
	case facts.DSCPMap == "":
		return newDSCPMap(in)
	}
	key := "DSCP_TO_TC_MAP|" + facts.DSCPMap
	out := []string{fmt.Sprintf("# in DSCP_TO_TC_MAP|%s, the map %s binds", facts.DSCPMap, port),
		db(key, fmt.Sprint(r.RoCEDSCP), fmt.Sprint(in.RoCEClass()))}
	if !mapped {
		out = append(out, fmt.Sprintf("# CNPs need a class of their own (here %d), whose queue must be strict priority", cnp),
			db(key, fmt.Sprint(r.CNPDSCP), fmt.Sprint(cnp)))
	}
	return out
}

// exampleSwitch is the facts explain shows the SONiC fixes for: the stock AZURE map bound,
// MTU 1500, a 100G Spectrum-3 port told 300 m of cable with a 40 m profile, and ECN marking
// from 2 MB.
func exampleSwitch() *topology.SwitchPort {
	p := example.Switch("Ethernet0", topology.MTU{Configured: 1500, Kind: "frame", Normalized: 1500})
	p.DSCPMap = "AZURE"
	ev := topology.Evidence{Command: CmdRunningConfig}
	asic := topology.HeadroomASIC{Name: "spectrum3", CellSize: 144, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8,
		PeerResponseKB: 3.8, LosslessMTU: 1024, SmallPacketPercent: 100}
	profile := "pg_lossless_100000_40m_profile"
	p.Headroom = topology.Known(topology.Headroom{SpeedMbps: 100000, CableM: 300, PortMTU: 9100, ASIC: asic,
		PGs: map[int]topology.PGHeadroom{3: {Profile: profile, Xoff: 92160, Xon: 18432, Size: 110592}}}, ev)
	p.ECNOrder = topology.Known(topology.ECNOrder{
		Queues: map[int]topology.ECNThreshold{3: {Profile: "AZURE_LOSSLESS", KMin: 2097152, KMax: 4194304}},
		PGs: map[int]topology.PFCThreshold{3: {Profile: profile, Reserved: 18432, DynamicTh: -3, HasDynamicTh: true,
			Pool: "ingress_lossless_pool", PoolSize: 12766208}}}, ev)
	return p
}
