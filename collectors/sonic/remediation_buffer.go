package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// bufferRemediation is the SONiC fix for SW-HEADROOM and SW-ECN-PFC-ORDER: CONFIG_DB writes,
// since sonic-utilities' `config interface cable-length` works only with the dynamic buffer
// model. Names come from the port's facts where they were read; the sizes are the ones the
// result reports. Any other check gives "".
func bufferRemediation(checkID, port string, facts *topology.SwitchPort, r recipe.Recipe) string {
	save := "sudo config save -y"
	pg := fmt.Sprintf("BUFFER_PG|%s|%d", port, r.RoCEPriority)
	var lines []string
	switch checkID {
	case "SW-HEADROOM":
		speed, cable := "<speed Mb/s>", "<N>"
		if facts != nil && facts.Headroom.Usable() {
			speed, cable = fmt.Sprint(facts.Headroom.Value.SpeedMbps), fmt.Sprint(facts.Headroom.Value.CableM)
		}
		profile := fmt.Sprintf("pg_lossless_%s_%sm_profile", speed, cable)
		lines = []string{
			"# 1. CABLE_LENGTH must be the real cable (a DAC/AOC reports it: show interfaces transceiver eeprom " + port + ")",
			db("CABLE_LENGTH|AZURE", port, cable+"m"),
			"# 2. a lossless profile with at least the xoff the result needs, xon the pipeline latency, bound to the RoCE PG",
			fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET '%s' xoff <xoff> xon <xon> size <xoff+xon> dynamic_th <as today> pool ingress_lossless_pool", "BUFFER_PROFILE|"+profile),
			db(pg, "profile", profile),
			"# or let buffermgrd size it: the dynamic buffer model (DEVICE_METADATA|localhost buffer_model=dynamic, profile NULL)",
			save}
	case "SW-ECN-PFC-ORDER":
		wred := "<the WRED_PROFILE of queue " + fmt.Sprint(r.RoCEPriority) + ">"
		if facts != nil && facts.ECNOrder.Usable() {
			if t, ok := facts.ECNOrder.Value.Queues[r.RoCEPriority]; ok {
				wred = t.Profile
			}
		}
		key := "WRED_PROFILE|" + wred
		lines = []string{
			"# ECN must start marking below the priority group's PFC trigger (the result shows it): lower Kmin/Kmax",
			db(key, "green_min_threshold", "<below the trigger>"),
			db(key, "green_max_threshold", "<above green_min_threshold>"),
			fmt.Sprintf("# or give the RoCE PG a larger shared-buffer share: raise dynamic_th of the profile %s binds", pg),
			save}
	default:
		return ""
	}
	return strings.Join(lines, "\n")
}
