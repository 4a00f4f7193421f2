package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/buffers"
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
		h, ok := headroomOf(facts)
		if !ok {
			return "# the speed, cable length and buffer profile of " + port + " were not read: " +
				"look them up in `show runningconfiguration all`"
		}
		need, err := buffers.Required(h)
		if err != nil {
			return "# the headroom cannot be sized from what the switch shows (" + err.Error() + "): use the dynamic buffer model"
		}
		profile := fmt.Sprintf("pg_lossless_%d_%dm_profile", h.SpeedMbps, h.CableM)
		dynTh := "0"
		if pgh, ok := h.PGs[r.RoCEPriority]; ok && pgh.Profile != "" {
			dynTh = "as in " + pgh.Profile
		}
		lines = []string{
			"# 1. CABLE_LENGTH must be the real cable (a DAC/AOC reports it: show interfaces transceiver eeprom " + port + ")",
			db("CABLE_LENGTH|AZURE", port, fmt.Sprintf("%dm", h.CableM)),
			fmt.Sprintf("# 2. a lossless profile sized for %d Mb/s over %d m (xoff %d, xon %d), bound to the RoCE PG; keep dynamic_th %s",
				h.SpeedMbps, h.CableM, need.Xoff, need.Xon, dynTh),
			fmt.Sprintf("sudo sonic-db-cli CONFIG_DB HSET 'BUFFER_PROFILE|%s' xoff %d xon %d size %d pool ingress_lossless_pool",
				profile, need.Xoff, need.Xon, need.Size),
			db(pg, "profile", profile),
			"# or let buffermgrd size it: the dynamic buffer model (DEVICE_METADATA|localhost buffer_model=dynamic, profile NULL)",
			save}
	case "SW-ECN-PFC-ORDER":
		o, ok := ecnOrderOf(facts)
		q, hasQ := o.Queues[r.RoCEPriority]
		pgT, hasPG := o.PGs[r.RoCEPriority]
		if !ok || !hasQ || !hasPG || q.Profile == "" {
			return "# the WRED profile of the RoCE queue of " + port + " or its priority group's buffer profile was not read: " +
				"look them up in `show runningconfiguration all`"
		}
		trigger, _ := buffers.PFCTrigger(pgT)
		kmin := trigger / 2
		kmax := trigger * 9 / 10
		key := "WRED_PROFILE|" + q.Profile
		lines = []string{
			fmt.Sprintf("# ECN must start marking below the PG's PFC trigger (%d B): Kmin %d -> %d, Kmax %d -> %d", trigger, q.KMin, kmin, q.KMax, kmax),
			db(key, "green_min_threshold", fmt.Sprint(kmin)),
			db(key, "green_max_threshold", fmt.Sprint(kmax)),
			fmt.Sprintf("# or give the RoCE PG a larger shared-buffer share: raise dynamic_th of %s", pgT.Profile),
			save}
	default:
		return ""
	}
	return strings.Join(lines, "\n")
}

func headroomOf(facts *topology.SwitchPort) (topology.Headroom, bool) {
	if facts == nil || !facts.Headroom.Usable() {
		return topology.Headroom{}, false
	}
	h := facts.Headroom.Value
	return h, h.SpeedMbps > 0 && h.CableM > 0
}

func ecnOrderOf(facts *topology.SwitchPort) (topology.ECNOrder, bool) {
	if facts == nil || !facts.ECNOrder.Usable() {
		return topology.ECNOrder{}, false
	}
	return facts.ECNOrder.Value, true
}
