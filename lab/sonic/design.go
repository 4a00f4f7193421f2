package sonic

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// DesignDefault is switchstate.Switch.Design for SONiC's default QoS as `config qos reload`
// generates it (sonic-buildimage qos_config.j2 and buffers_config.j2): every map named AZURE,
// pfcwd_sw_enable on the lossless priorities whether or not the watchdog runs (the scenario
// gives its ports the torrouter cable length, 5m).
const DesignDefault = "sonic-default"

// spelling is how the CONFIG_DB names what the state leaves open.
type spelling struct {
	tcMaps  string // the TC, PFC and DOT1P maps every port binds
	dynamic bool   // buffer_model dynamic: lossless PGs bind "NULL"
	// pfcwdOnPFC writes pfcwd_sw_enable as pfc_enable (the template's LOSSLESS_TC), not as
	// the watched priorities.
	pfcwdOnPFC bool
}

func spellingOf(sw *switchstate.Switch) spelling {
	sp := spelling{tcMaps: RoCEMap, dynamic: bufferModel(sw) == "dynamic"}
	if sw.Design == DesignDefault {
		sp.tcMaps, sp.pfcwdOnPFC = StockMap, true
	}
	return sp
}

// bufferModel is DEVICE_METADATA buffer_model.
func bufferModel(sw *switchstate.Switch) string {
	if sw.BufferModel == "dynamic" {
		return "dynamic"
	}
	return "traditional"
}

// schedulerOf names the SCHEDULER queue q of p binds ("" for none): strict queues share
// scheduler.strict; a port with stated weights binds one scheduler per weight and none to a
// zero-weight queue; otherwise lossless (PFC) queues get scheduler.1 and the rest scheduler.0.
func schedulerOf(p *switchstate.Port, q int) string {
	switch {
	case p.Strict[q]:
		return schedStrict
	case p.Weighted():
		if p.Weight[q] == 0 {
			return ""
		}
		return weightedScheduler(p.Weight[q])
	case pfcEnable(p)[q]:
		return schedLossless
	}
	return schedLossy
}

// weightedScheduler is the scheduler of DWRR weight w: the stock template's scheduler.0 (14)
// and scheduler.1 (15), else one named after its weight.
func weightedScheduler(w int) string {
	switch w {
	case 14:
		return schedLossy
	case 15:
		return schedLossless
	}
	return fmt.Sprintf(schedWeighted, w)
}

// addSchedulers writes the SCHEDULER rows some queue binds.
func addSchedulers(db tables, ports []*switchstate.Port) {
	for _, p := range ports {
		for q := 0; q < 8; q++ {
			name := schedulerOf(p, q)
			switch {
			case name == "":
			case name == schedStrict:
				db.set("SCHEDULER", name, map[string]string{"type": "STRICT"})
			default:
				w := p.Weight[q]
				if !p.Weighted() {
					w = map[string]int{schedLossy: 14, schedLossless: 15}[name]
				}
				db.set("SCHEDULER", name, map[string]string{"type": "DWRR", "weight": strconv.Itoa(w)})
			}
		}
	}
}
