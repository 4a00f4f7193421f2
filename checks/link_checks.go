package checks

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// linkChecks compare the two ends of a link (LINK-*).
func linkChecks() []*Check {
	return []*Check{linkMTU(), linkPFC(), linkPFCStorm(), linkLLDP()}
}

// linkLLDP compares each declared link with what the switches see over LLDP: it reports
// conflicts between the inventory and the cabling instead of hiding them.
func linkLLDP() *Check {
	return &Check{
		ID: "LINK-LLDP", Title: "declared links agree with what LLDP sees",
		Scope: ScopeLink, Severity: Warning,
		Rationale: "Paths are built from the links. A declaration that disagrees with the cabling " +
			"makes roceaudit audit hops the traffic never takes; LLDP shows what is plugged in now.",
		Sources:  []string{"IEEE 802.1AB (LLDP)"},
		Expected: func(recipe.Recipe) string { return "the declared peer is the one LLDP sees" },
		Hint:     "correct the inventory's links: (or the cabling) so both agree",
		declared: func(_ recipe.Recipe, dl topology.DeclaredLink) verdict {
			switch {
			case dl.Seen == nil:
				return verdict{status: Skip, actual: "not seen by LLDP", message: "no switch or host reported an LLDP neighbour on either end"}
			case dl.Agrees:
				return verdict{status: Pass, actual: "confirmed by LLDP"}
			}
			seen := dl.Seen.A.String() + " - " + dl.Seen.B.String()
			return verdict{status: Warn, actual: "LLDP sees " + seen,
				message:     "the inventory declares " + dl.Link.A.String() + " - " + dl.Link.B.String() + " but LLDP sees " + seen + "; paths follow LLDP",
				evidence:    &topology.Evidence{Command: "LLDP neighbours of " + dl.Seen.A.Device, Excerpt: seen},
				remediation: "fix the links: entry for " + dl.Link.A.String() + " in the inventory, or the cabling"}
		},
	}
}

func linkMTU() *Check {
	return &Check{
		ID: "LINK-MTU", Title: "both ends agree on MTU (vendor-normalized)",
		Scope: ScopeLink, Severity: SevError,
		Rationale: "A frame the far end cannot take is dropped silently on that one link. Between two " +
			"switches the normalized MTUs must be equal; a switch facing a host must carry the host's frames.",
		Sources:  []string{"IEEE 802.3 (frame size)", "vendor MTU semantics (EOS IP MTU vs frame MTU)"},
		Expected: func(recipe.Recipe) string { return "the same MTU class on both ends" },
		Hint:     "set the same MTU class on both ends of the link",
		link: func(r recipe.Recipe, a, b end) verdict {
			ma, wa, ea, oka := a.mtu()
			mb, wb, eb, okb := b.mtu()
			if !oka || !okb {
				why, src := wa, ea
				if oka {
					why, src = wb, eb
				}
				if src == nil {
					src = evidenceOf(why)
				}
				return verdict{status: Error, actual: "unknown", message: why, evidence: src,
					remediation: "make the unknown end readable (see its device and port results), then re-run"}
			}
			actual := a.ref.String() + " " + strconv.Itoa(ma) + ", " + b.ref.String() + " " + strconv.Itoa(mb)
			ok := ma == mb
			switch {
			case a.host != nil && b.sw != nil:
				ok = mb >= ma
			case a.sw != nil && b.host != nil:
				ok = ma >= mb
			}
			if ok {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "the two ends of the link disagree on MTU", evidence: linkEvidence(a, b, mtuSource),
				remediation: fmt.Sprintf("align the MTU of %s and %s (recipe: hosts %d, switches %d)", a.ref, b.ref, r.HostMTU, r.SwitchMTU)}
		},
	}
}

func linkPFC() *Check {
	return &Check{
		ID: "LINK-PFC", Title: "both ends enable PFC on the same priorities",
		Scope: ScopeLink, Severity: Critical,
		Rationale: "PFC is a hop-by-hop protocol: a pause frame only helps if the far end honours it for " +
			"the same priority. One end without PFC on the RoCE priority makes the link lossy.",
		Sources:  []string{"IEEE 802.1Qbb"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("PFC on priority %d at both ends", r.RoCEPriority) },
		Hint:     "enable PFC on the same priority (the RoCE one) at both ends",
		link: func(_ recipe.Recipe, a, b end) verdict {
			pa, asa, wa, ea, oka := a.pfc()
			pb, asb, wb, eb, okb := b.pfc()
			if !oka || !okb {
				why, src := wa, ea
				if oka {
					why, src = wb, eb
				}
				if src == nil {
					src = evidenceOf(why)
				}
				return verdict{status: Error, actual: "unknown", message: why, evidence: src,
					remediation: "make the unknown end readable (see its device and port results), then re-run"}
			}
			actual := a.ref.String() + " PFC on " + Priorities(pa) + asa + "; " + b.ref.String() + " PFC on " + Priorities(pb) + asb
			if slices.Equal(pa, pb) && asa == "" && asb == "" {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "the two ends of the link do not agree on PFC", evidence: linkEvidence(a, b, pfcSource),
				remediation: fmt.Sprintf("enable PFC on the RoCE priority only, in both directions, on %s and %s", a.ref, b.ref)}
		},
	}
}
