package checks

import (
	"fmt"
	"strconv"
	"strings"

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
			"SONiC CONFIG_DB CABLE_LENGTH, BUFFER_PG, BUFFER_PROFILE, PORT speed/mtu",
			"mlnx_qos Cable len (mlx5 dcbnl PFC delay; driver default MLX5E_DEFAULT_CABLE_LEN 7 m, drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.h)"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("xoff of priority group %d >= the formula's need for the port's speed, cable and MTU", r.RoCEPriority)
		},
		Hint:     "bind the RoCE priority group a lossless profile sized for the port's speed and real cable length",
		withPeer: headroomPeer,
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
				actual := "priority group " + strconv.Itoa(pg) + " " + got.Profile + ": xoff " + strconv.Itoa(got.Xoff) + " B; need " +
					strconv.Itoa(need.Xoff) + " B for " + strconv.Itoa(h.SpeedMbps) + " Mb/s, " + strconv.Itoa(h.CableM) + " m, MTU " +
					strconv.Itoa(h.PortMTU) + " on " + h.ASIC.Name
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

// headroomPeer compares the cable length the switch sizes the port for with the one the host
// NIC at the other end sizes its own receive headroom for (mlnx_qos "Cable len"): one cable,
// two claims. A NIC told less than the switch may be short of headroom itself; a NIC told
// more is judged against the switch's xoff, which must then cover that length too.
func headroomPeer(r recipe.Recipe, p *topology.SwitchPort, peer end, v verdict) verdict {
	if peer.host == nil || !peer.host.QoS.Usable() || !p.Headroom.Usable() {
		return v
	}
	h, nic := p.Headroom.Value, peer.host.QoS.Value.CableLenM
	got, ok := h.PGs[p.ClassOf(r.RoCEPriority)]
	if nic == 0 || h.Computed != "" || h.CableM == 0 || h.CableM == nic || !ok {
		return v
	}
	note := fmt.Sprintf("the two ends disagree on the cable: the switch sizes for %d m (CABLE_LENGTH), %s's NIC for %d m (mlnx_qos Cable len)",
		h.CableM, peer.ref, nic)
	short := nic < h.CableM
	if short {
		note += fmt.Sprintf("; if the switch is right, the NIC's own receive headroom is sized for a cable %d m too short and it drops what arrives after its pause", h.CableM-nic)
	} else {
		alt := h
		alt.CableM = nic
		need, err := buffers.Required(alt)
		switch {
		case err != nil:
			note += "; the need for the NIC's length cannot be computed: " + err.Error()
		case got.Xoff < need.Xoff:
			short = true
			note += fmt.Sprintf("; if the NIC is right, xoff is %d B short of the %d B a %d m cable needs", need.Xoff-got.Xoff, need.Xoff, nic)
		default:
			note += fmt.Sprintf("; xoff also covers %d m", nic)
		}
	}
	v.message = joinNotes(v.message, []string{note})
	if short && v.status == Pass {
		v.status = Warn
		src := peer.host.QoS.Source
		v.evidence = &topology.Evidence{Command: p.Headroom.Source.Command + "; " + peer.ref.String() + ": " + src.Command,
			Excerpt: strings.TrimSpace(p.Headroom.Source.Excerpt + "\n" + cableLines(src.Excerpt))}
		v.actual = fmt.Sprintf("cable %d m on the switch, %d m on %s; %s", h.CableM, nic, peer.ref, v.actual)
		longer := max(nic, h.CableM)
		var fixes []string
		if nic < longer {
			fixes = append(fixes, fmt.Sprintf("on the host `mlnx_qos -i %s --cable_len=%d`", peer.host.Netdev, longer))
		}
		if h.CableM < longer {
			fixes = append(fixes, fmt.Sprintf("on the switch CABLE_LENGTH %s %dm and a lossless profile sized for it", p.Name, longer))
		}
		v.remediation = fmt.Sprintf("tell both ends the same length, the longer claim (%d m) until the cable between %s and %s is measured "+
			"(a longer one only reserves more): %s", longer, p.Name, peer.ref, strings.Join(fixes, "; "))
	}
	return v
}

// cableLines keeps the host tool's cable-length line of an excerpt.
func cableLines(excerpt string) string {
	var out []string
	for _, l := range strings.Split(excerpt, "\n") {
		if strings.Contains(l, "Cable len") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}
