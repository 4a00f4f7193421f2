package checks

import (
	"fmt"

	"github.com/roceaudit/roceaudit/buffers"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// swHeadroom recomputes, with the vendor's own formula, the headroom the RoCE priority group
// needs for the port's speed, cable length and MTU and the peer's pause response, and compares
// the configured xoff with it.
func swHeadroom() *Check {
	return &Check{
		ID: "SW-HEADROOM", Title: "the RoCE priority group's xoff covers the headroom its link needs",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "After a port sends pause, the frames already on the cable, the frame the peer is sending and " +
			"what the peer sends before it reacts keep arriving; the priority group's xoff headroom must hold " +
			"them or the lossless class drops. The need grows with speed and cable length (twice the cable " +
			"delay times the speed), the MTU and the peer's pause response (IEEE 802.3 pause quanta); a " +
			"profile sized for a shorter cable than CABLE_LENGTH claims, or for a slower speed, is too small.",
		Sources: []string{buffers.HeadroomSource,
			"SONiC ASIC_TABLE constants: files/build_templates/asic_table.j2 (stephenxs/sonic-buildimage, commit 761bdf3e224be7abb7e4e1fe12d4d87624b1ca3f)",
			"SONiC pg_profile_lookup.ini (device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700, edge-core/sonic-buildimage commit 0db7e88313994cffe5e29e2ebe5f0aa993073513)",
			"SONiC CONFIG_DB CABLE_LENGTH, BUFFER_PG, BUFFER_PROFILE, PORT speed/mtu"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("xoff of priority group %d >= the formula's need for the port's speed, cable and MTU", r.RoCEPriority)
		},
		Hint: "bind the RoCE priority group a lossless profile sized for the port's speed and real cable length",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			pg := p.ClassOf(r.RoCEPriority)
			return switchFact(p.Headroom, "headroom", func(h topology.Headroom) verdict {
				if h.Computed != "" {
					return verdict{status: Pass, actual: "computed by the switch", message: h.Computed}
				}
				got, ok := h.PGs[pg]
				if !ok {
					return verdict{status: Skip, actual: fmt.Sprintf("priority group %d has no lossless profile", pg),
						message: "nothing to size (see SW-BUFFER)"}
				}
				need, err := buffers.Required(h)
				if err != nil {
					return verdict{status: Error, actual: "cannot compute the need", message: err.Error()}
				}
				actual := fmt.Sprintf("priority group %d %s: xoff %d B; need %d B for %d Mb/s, %d m, MTU %d on %s",
					pg, got.Profile, got.Xoff, need.Xoff, h.SpeedMbps, h.CableM, h.PortMTU, h.ASIC.Name)
				if got.Xoff >= need.Xoff {
					return verdict{status: Pass, actual: actual}
				}
				// SONiC's traditional pg_profile_lookup.ini tables were sized with the ASIC's fixed
				// peer response time, before the pause-quanta term: a profile that meets that older
				// sizing is a warning, not a failure.
				if a := h.ASIC.PeerResponseKB * 1024; a > 0 && a < need.PeerBytes {
					if old := buffers.With(h, a); got.Xoff >= old.Xoff {
						return verdict{status: Warn, actual: actual, message: fmt.Sprintf(
							"xoff covers the sizing of SONiC's traditional lookup tables (%d B, peer response %.0f B) but not "+
								"the current formula's, whose peer response is the %d Mb/s pause quanta (%.0f B): %d B short",
							old.Xoff, a, h.SpeedMbps, need.PeerBytes, need.Xoff-got.Xoff)}
					}
				}
				return verdict{status: Fail, actual: actual, message: fmt.Sprintf(
					"xoff is %d B short: the cable holds %.0f B both ways and the peer sends %.0f B before it pauses, "+
						"x %.2f cell occupancy, plus the MTU terms", need.Xoff-got.Xoff, need.CableBytes, need.PeerBytes, need.Occupancy)}
			})
		},
	}
}
