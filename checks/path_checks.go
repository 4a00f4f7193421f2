package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// pathVerdict is a verdict about one path (or one equal-cost member of it), located at the hop
// that decided it.
type pathVerdict struct {
	verdict
	device, iface, path string
}

func pathChecks() []*Check {
	return []*Check{pathResolved(), pathMTU(), pathDCBXMix()}
}

func pathResolved() *Check {
	return &Check{
		ID: "PATH-RESOLVED", Title: "at least one path joins the endpoints",
		Scope: ScopePath, Severity: Critical,
		Rationale: "A path audit is only as good as the topology: without links (declared or LLDP) " +
			"joining the endpoints, no hop can be checked and the path is unknown.",
		Sources:  []string{"IEEE 802.1AB (LLDP)"},
		Expected: func(recipe.Recipe) string { return "one or more equal-cost paths" },
		Hint:     "declare the missing links in the inventory (links:) or enable LLDP on the switches and hosts",
		path: func(_ recipe.Recipe, _ *fabric, rp ResolvedPath) []pathVerdict {
			pv := pathVerdict{path: rp.Name(), device: rp.From.Device, iface: rp.From.Interface}
			switch {
			case rp.Err != nil:
				pv.verdict = verdict{status: Error, actual: "unresolved", message: rp.Err.Error(), evidence: evidenceOf(rp.Err.Error())}
			case len(rp.Paths) == 0:
				pv.verdict = verdict{status: Fail, actual: "no path", message: "no chain of known links joins the endpoints",
					evidence:    evidenceOf("links come from the inventory and from switch LLDP neighbours"),
					remediation: "check cabling and LLDP on the switches of " + rp.Name() + ", or declare the links in the inventory"}
			default:
				var via []string
				for _, p := range rp.Paths {
					via = append(via, Via(p))
				}
				actual := fmt.Sprintf("%d equal-cost path(s) via %s", len(rp.Paths), strings.Join(via, ", "))
				if rp.Truncated {
					actual += fmt.Sprintf(" (first %d listed)", topology.MaxPaths)
				}
				pv.verdict = verdict{status: Pass, actual: actual}
			}
			return []pathVerdict{pv}
		},
	}
}

// hopPorts lists the ports a path crosses, in order.
func hopPorts(hops []topology.Hop) []topology.PortRef {
	var out []topology.PortRef
	for _, h := range hops {
		if h.InPort != "" {
			out = append(out, topology.PortRef{Device: h.Device, Interface: h.InPort})
		}
		if h.OutPort != "" {
			out = append(out, topology.PortRef{Device: h.Device, Interface: h.OutPort})
		}
	}
	return out
}

func pathMTU() *Check {
	return &Check{
		ID: "PATH-MTU", Title: "every hop at recipe MTU; roce_mtu plus headers fits the smallest MTU",
		Scope: ScopePath, Severity: SevError,
		Rationale: "The path MTU is the smallest hop's. One ECMP member with a small MTU drops the " +
			"flows that hash onto it while the others look fine.",
		Sources: []string{"include/rdma/ib_addr.h iboe_get_mtu()"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("hosts %d, switches %d class, and %d+%d bytes fit every hop", r.HostMTU, r.SwitchMTU, r.RoCEMTU, recipe.RoCEOverhead)
		},
		Hint: "raise the MTU of the named hop to the recipe's",
		path: func(r recipe.Recipe, f *fabric, rp ResolvedPath) []pathVerdict {
			var out []pathVerdict
			for _, hops := range rp.Paths {
				pv := pathVerdict{path: PathName{Pair: rp.Name(), Route: Via(hops)}.String()}
				smallest, bad := 0, []string{}
				var first *topology.PortRef
				var unknown []string
				for _, ref := range hopPorts(hops) {
					e := f.end(ref)
					m, why, _, ok := e.mtu()
					if !ok {
						unknown = append(unknown, ref.String()+": "+why)
						continue
					}
					if smallest == 0 || m < smallest {
						smallest = m
					}
					want := r.SwitchMTU
					if e.host != nil {
						want = r.HostMTU
					}
					if m != want || m < r.RoCEMTU+recipe.RoCEOverhead {
						bad = append(bad, fmt.Sprintf("%s %d", ref, m))
						if first == nil {
							ref := ref
							first = &ref
						}
					}
				}
				switch {
				case len(bad) > 0:
					pv.device, pv.iface = first.Device, first.Interface
					pv.verdict = verdict{status: Fail, actual: "MTU " + strings.Join(bad, ", ") + fmt.Sprintf(" (path minimum %d)", smallest),
						message:     "a hop of this path is below the recipe MTU",
						evidence:    evidenceOf("hops: " + describeHops(hops)),
						remediation: fmt.Sprintf("raise the MTU of %s to the recipe (hosts %d, switches %d)", strings.Join(bad, ", "), r.HostMTU, r.SwitchMTU)}
				case len(unknown) > 0:
					pv.device, pv.iface = rp.From.Device, rp.From.Interface
					pv.verdict = verdict{status: Error, actual: "unknown", message: "MTU unknown on " + strings.Join(unknown, "; "), evidence: evidenceOf(strings.Join(unknown, "; "))}
				default:
					pv.device, pv.iface = rp.From.Device, rp.From.Interface
					pv.verdict = verdict{status: Pass, actual: fmt.Sprintf("path minimum MTU %d", smallest)}
				}
				out = append(out, pv)
			}
			return out
		},
	}
}

func describeHops(hops []topology.Hop) string {
	var parts []string
	for _, h := range hops {
		parts = append(parts, fmt.Sprintf("%s[%s>%s]", h.Device, h.InPort, h.OutPort))
	}
	return strings.Join(parts, " ")
}

func pathDCBXMix() *Check {
	return &Check{
		ID: "PATH-DCBX-MIX", Title: "not a mix of static and DCBX hops",
		Scope: ScopePath, Severity: SevError,
		Rationale: "On a path that mixes static and DCBX-negotiated ports, the negotiated ones follow " +
			"whatever is advertised and can drift from the static recipe without anyone changing them.",
		Sources:  []string{"IEEE 802.1Qaz"},
		Expected: func(r recipe.Recipe) string { return "every hop " + r.DCBX },
		Hint:     "use one DCB regime (static or DCBX) on every hop of the path",
		path: func(r recipe.Recipe, f *fabric, rp ResolvedPath) []pathVerdict {
			var out []pathVerdict
			for _, hops := range rp.Paths {
				pv := pathVerdict{path: PathName{Pair: rp.Name(), Route: Via(hops)}.String(), device: rp.From.Device, iface: rp.From.Interface}
				modes := map[string][]string{}
				var unknownHops []string
				for _, ref := range hopPorts(hops) {
					if m, ok := f.end(ref).dcbx(); ok {
						modes[m] = append(modes[m], ref.String())
					} else {
						unknownHops = append(unknownHops, ref.String())
					}
				}
				var keys []string
				for k := range modes {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				switch {
				case len(keys) < 2 && len(unknownHops) > 0:
					pv.verdict = verdict{status: Error, actual: "unknown",
						message:  "the DCB regime of " + strings.Join(unknownHops, ", ") + " is unknown, so a mix cannot be ruled out",
						evidence: evidenceOf(describeHops(hops))}
				case len(keys) == 1:
					pv.verdict = verdict{status: Pass, actual: "every hop " + keys[0]}
				default: // two regimes on one path: a mix, whatever the unknown hops are
					var parts []string
					for _, k := range keys {
						parts = append(parts, k+": "+strings.Join(modes[k], ", "))
					}
					minority := modes[keys[0]]
					if len(modes[keys[1]]) < len(minority) {
						minority = modes[keys[1]]
					}
					dev, iface, _ := strings.Cut(minority[0], ":")
					pv.device, pv.iface = dev, iface
					pv.verdict = verdict{status: Fail, actual: strings.Join(parts, "; "), message: "the path mixes static and DCBX hops",
						evidence: evidenceOf(describeHops(hops)), remediation: "make " + strings.Join(minority, ", ") + " " + r.DCBX + " like the rest of the path"}
				}
				out = append(out, pv)
			}
			return out
		},
	}
}
