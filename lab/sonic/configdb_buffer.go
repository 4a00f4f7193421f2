package sonic

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// addCableLength writes the port's CABLE_LENGTH|AZURE entry ("40m"), as the buffer templates do.
func addCableLength(db tables, p *switchstate.Port) {
	if db["CABLE_LENGTH"] == nil || db["CABLE_LENGTH"]["AZURE"] == nil {
		db.set("CABLE_LENGTH", "AZURE", map[string]string{})
	}
	db["CABLE_LENGTH"]["AZURE"][p.Name] = strconv.Itoa(p.CableM) + "m"
}

// losslessRow is a lossless BUFFER_PROFILE row in the traditional model's shape.
func losslessRow(h switchstate.Headroom) map[string]string {
	return map[string]string{"dynamic_th": strconv.Itoa(h.DynamicTh), "pool": "ingress_lossless_pool",
		"size": strconv.Itoa(h.Size), "xoff": strconv.Itoa(h.Xoff), "xon": strconv.Itoa(h.Xon)}
}

// wredName is the WRED profile a port's ECN queues bind: the stock AZURE_LOSSLESS for the
// healthy thresholds, else one named after the port.
func wredName(p *switchstate.Port) string {
	if p.ECNMin == switchstate.HealthyECNMin && p.ECNMax == switchstate.HealthyECNMax {
		return wredProfile
	}
	return wredProfile + "_" + strings.ToUpper(p.Name)
}

// addWRED writes every WRED profile the ports bind, with green, yellow and red thresholds alike.
func addWRED(db tables, ports []*switchstate.Port) {
	wred := func(min, max int) map[string]string {
		row := map[string]string{"ecn": "ecn_all"}
		for _, c := range []string{"green", "yellow", "red"} {
			row["wred_"+c+"_enable"] = "true"
			row[c+"_min_threshold"], row[c+"_max_threshold"] = strconv.Itoa(min), strconv.Itoa(max)
			row[c+"_drop_probability"] = "5"
		}
		return row
	}
	db.set("WRED_PROFILE", wredProfile, wred(switchstate.HealthyECNMin, switchstate.HealthyECNMax))
	for _, p := range ports {
		if name := wredName(p); name != wredProfile {
			db.set("WRED_PROFILE", name, wred(p.ECNMin, p.ECNMax))
		}
	}
}
