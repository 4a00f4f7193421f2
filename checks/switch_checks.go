package checks

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// switchChecks are the SW-* checks, on every switch port that links two
// inventory devices.
func switchChecks() []*Check {
	return []*Check{swMTU(), swTrust(), swDSCPMap(), swPFC(), swPFCWatchdog(), swPause(), swECN(),
		swCNPQueue(), swDCBX(), swBuffer(), swHeadroom(), swECNPFCOrder()}
}

// switchFact applies the rules every switch fact shares: unreadable is error, unsupported is
// skip (the reason is the message), a pass on an inferred default is a warning that says what
// was assumed; otherwise decide.
func switchFact[T any](f topology.Fact[T], what string, decide func(v T) verdict) verdict {
	switch f.Status {
	case topology.FactUnsupported:
		return verdict{status: Skip, actual: "not supported by the platform", message: f.Reason}
	case topology.FactUnknown:
		return unknown(what, f.Source)
	}
	v := decide(f.Value)
	if v.status == Pass && f.Status == topology.FactInferred {
		v.status = Warn
		v.message = "not configured: assumed from the platform's default (" + f.Reason + "); configure it explicitly or verify on the device"
		v.remediation = "configure the setting explicitly so the audit can read it"
	}
	if v.status != Pass && v.evidence == nil {
		v.evidence = ev(f.Evidence())
	}
	return v
}

func swMTU() *Check {
	return &Check{
		ID: "SW-MTU", Title: "frame MTU equals switch_mtu (vendor-normalized)",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "A switch port with a smaller MTU than the hosts drops or fragments 4096-byte RoCE " +
			"payloads (plus headers); every hop must carry the same jumbo frame.",
		Sources:  []string{"SONiC PORT.mtu", "NVUE link mtu", "EOS mtu (IP MTU)", "NX-OS mtu"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("frame MTU %d class", r.SwitchMTU) },
		Hint:     "set the recipe's switch MTU on the port",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.MTU, "port MTU", func(m topology.MTU) verdict {
				actual := "MTU " + strconv.Itoa(m.Configured)
				if m.Kind == "ip" {
					actual = "IP MTU " + strconv.Itoa(m.Configured) + " (frame class " + strconv.Itoa(m.Normalized) + ")"
				}
				if m.Normalized == r.SwitchMTU {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "port MTU differs from the recipe"}
			})
		},
	}
}

func swTrust() *Check {
	return &Check{
		ID: "SW-TRUST", Title: "ingress trusts DSCP",
		Scope: ScopeSwitchPort, Severity: Critical,
		Rationale: "Routed RoCEv2 is classified by DSCP; a port trusting only PCP (or nothing) puts " +
			"RoCE in the default, lossy class.",
		Sources:  []string{"SONiC PORT_QOS_MAP.dscp_to_tc_map", "NVUE qos mapping trust", "EOS qos trust dscp", "NX-OS service-policy type qos"},
		Expected: func(recipe.Recipe) string { return "trust dscp" },
		Hint:     "classify the port's traffic by DSCP",
		switchPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.Trust, "DSCP trust", func(t string) verdict {
				if t == "dscp" || t == "both" {
					return verdict{status: Pass, actual: "trust " + t}
				}
				return verdict{status: Fail, actual: "trust " + t, message: "the port does not classify by DSCP"}
			})
		},
	}
}

func swDSCPMap() *Check {
	return &Check{
		ID: "SW-DSCP-MAP", Title: "roce_dscp lands in roce_priority's class and cnp_dscp in another",
		Scope: ScopeSwitchPort, Severity: Critical,
		Rationale: "The switch must put the RoCE DSCP in the class PFC protects for the RoCE priority, " +
			"whatever form its classifier takes (an exact DSCP, a range such as 24-31, a list, the NOS " +
			"default map), and CNPs in a class of their own, which designs number differently (qos-group 7 " +
			"in Cisco's AI/ML design, TC 6 in NVIDIA's). Stock SONiC maps DSCP 26 to TC1, which is lossy.",
		Sources: []string{"SONiC DSCP_TO_TC_MAP", "NVUE qos mapping / qos roce", "EOS qos map dscp", "NX-OS class-map match dscp + set qos-group + pause pfc-cos"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("DSCP %d -> the class of priority %d, DSCP %d -> another class", r.RoCEDSCP, r.RoCEPriority, r.CNPDSCP)
		},
		Hint: "map the RoCE DSCP to the RoCE class and the CNP DSCP to a class of its own",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.DSCPToTC, "DSCP to traffic-class map", func(m map[int]int) verdict {
				actual := landing(p, m, r.RoCEDSCP) + ", " + landing(p, m, r.CNPDSCP)
				want := p.ClassOf(r.RoCEPriority)
				roce, okR := m[r.RoCEDSCP]
				cnp, okC := m[r.CNPDSCP]
				fail := func(msg string) verdict { return verdict{status: Fail, actual: actual, message: msg} }
				switch {
				case !okR:
					return fail(fmt.Sprintf("the RoCE DSCP %d has no class on this port", r.RoCEDSCP))
				case roce != want:
					return fail(fmt.Sprintf("the RoCE DSCP %d lands in class %d%s, not in class %d, which carries priority %d",
						r.RoCEDSCP, roce, lossyNote(p, roce), want, r.RoCEPriority))
				case !okC:
					return fail(fmt.Sprintf("the CNP DSCP %d has no class on this port", r.CNPDSCP))
				case cnp == want:
					return fail(fmt.Sprintf("the CNP DSCP %d lands in the RoCE class %d: CNPs wait behind, and are paused with, the data they slow down",
						r.CNPDSCP, want))
				}
				return verdict{status: Pass, actual: actual}
			})
		},
	}
}

func swPFC() *Check {
	return &Check{
		ID: "SW-PFC", Title: "PFC on roce_priority only (asymmetric PFC reported)",
		Scope: ScopeSwitchPort, Severity: Critical,
		Rationale: "PFC must protect the RoCE priority on every hop, and only it: a hop without it drops, " +
			"extra priorities spread pause; asymmetric PFC (rx without tx) still drops on one side.",
		Sources:  []string{"IEEE 802.1Qbb", "SONiC PORT_QOS_MAP.pfc_enable", "NVUE qos pfc", "EOS priority-flow-control", "NX-OS pause pfc-cos"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("PFC on priority %d only", r.RoCEPriority) },
		Hint:     "enable PFC on the RoCE priority only, both directions",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.PFC, "PFC configuration", func(pfc topology.SwitchPFC) verdict {
				// NX-OS `priority-flow-control mode auto`: PFC runs only if DCBX negotiation
				// enables it, which only the operational state says (SW-DCBX flags the regime).
				switch {
				case pfc.Mode == "auto" && pfc.Oper == "":
					return verdict{status: Error, actual: "negotiated (mode auto)",
						message:     "PFC follows DCBX negotiation on this port; its operational state was not read",
						remediation: "make PFC static on the port, or read its operational state", platformFix: true}
				case pfc.Mode == "auto" && pfc.Oper == "off":
					return verdict{status: Fail, actual: "negotiated (mode auto), operationally off",
						message: "DCBX negotiation did not enable PFC on this port: PFC is not operational and the hop is lossy"}
				}
				rx, tx := sortedInts(pfc.RX), sortedInts(pfc.TX)
				actual := "PFC on " + Priorities(rx)
				if !slices.Equal(rx, tx) {
					actual = fmt.Sprintf("asymmetric PFC: rx %s, tx %s", Priorities(rx), Priorities(tx))
				}
				switch {
				case pfc.Oper == "on":
					actual += " (mode " + pfc.Mode + ", operational: negotiated by DCBX)"
				case pfc.Mode != "":
					actual += " (mode " + pfc.Mode + ")"
				}
				want := []int{r.RoCEPriority}
				if slices.Equal(rx, want) && slices.Equal(tx, want) {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "PFC is not on the RoCE priority alone"}
			})
		},
	}
}

func swPFCWatchdog() *Check {
	return &Check{
		ID: "SW-PFC-WATCHDOG", Title: "PFC watchdog on roce_priority",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "A stuck receiver can pause a queue forever and the pause spreads through the fabric " +
			"(PFC storm, deadlock). The watchdog detects a queue paused too long and drops or forwards to break it.",
		Sources:  []string{"SONiC pfcwd", "NVUE pfc-watchdog", "EOS priority-flow-control pause watchdog", "NX-OS priority-flow-control watch-dog"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("PFC watchdog on priority %d", r.RoCEPriority) },
		Hint:     "enable the PFC watchdog on the RoCE priority",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			if !r.PFCWatchdog {
				return verdict{status: Skip, actual: "not required", message: "recipe.pfc_watchdog is false"}
			}
			if p.PFC.Usable() && !slices.Contains(p.PFC.Value.RX, r.RoCEPriority) && !slices.Contains(p.PFC.Value.TX, r.RoCEPriority) {
				return verdict{status: Skip, actual: "no PFC to watch", message: fmt.Sprintf("PFC is off on priority %d (see SW-PFC)", r.RoCEPriority)}
			}
			return switchFact(p.PFCWatchdog, "PFC watchdog", func(m map[int]bool) verdict {
				on := make([]int, 0, len(m))
				for prio, enabled := range m {
					if enabled {
						on = append(on, prio)
					}
				}
				slices.Sort(on)
				actual := "watchdog on " + Priorities(on)
				if m[r.RoCEPriority] {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "no PFC watchdog on the RoCE priority"}
			})
		},
	}
}

func swPause() *Check {
	return &Check{
		ID: "SW-PAUSE", Title: "802.3x pause off",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "Link-level pause stops every class; with PFC off the port falls back to it, so it must be off.",
		Sources:   []string{"IEEE 802.3 Annex 31B", "EOS flowcontrol", "NX-OS flowcontrol", "NVUE qos link-pause"},
		Expected:  func(recipe.Recipe) string { return "pause RX off, TX off" },
		Hint:      "turn link-level flow control off on the port",
		switchPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.Pause, "link pause", func(pp topology.Pause) verdict {
				actual := "pause RX " + onOff(pp.RX) + ", TX " + onOff(pp.TX)
				if !pp.RX && !pp.TX {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "802.3x pause is on"}
			})
		},
	}
}

func swECN() *Check {
	return &Check{
		ID: "SW-ECN", Title: "ECN marking on the RoCE queue",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "DCQCN starts at the switch: without ECN marking on the RoCE queue, senders never slow " +
			"down and congestion is handled by PFC alone.",
		Sources: []string{"SONiC WRED_PROFILE ecn", "NVUE congestion-control", "EOS random-detect ecn", "NX-OS random-detect ecn"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("ECN marking on the queue of priority %d", r.RoCEPriority)
		},
		Hint: "enable ECN (WRED ecn) on the RoCE queue",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			q := p.QueueOf(p.ClassOf(r.RoCEPriority))
			return switchFact(p.ECN, "ECN configuration", func(m map[int]bool) verdict {
				if _, ok := m[q]; !ok {
					return verdict{status: Error, actual: fmt.Sprintf("queue %d not reported", q),
						message: fmt.Sprintf("the switch's ECN configuration does not mention queue %d", q)}
				}
				actual := "queue " + strconv.Itoa(q) + " ECN " + onOff(m[q])
				if m[q] {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "no ECN marking on the RoCE queue"}
			})
		},
	}
}

func swCNPQueue() *Check {
	return &Check{
		ID: "SW-CNP-QUEUE", Title: "the queue cnp_dscp lands in is strict priority",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "CNPs must overtake data to slow senders in time; in a weighted queue they wait behind " +
			"the very congestion they signal. The queue is the one the switch classifies the CNP DSCP into " +
			"(queue 7 in Cisco's AI/ML design, 6 in NVIDIA's), not a fixed number. Stock SONiC gives it DWRR.",
		Sources: []string{"SONiC DSCP_TO_TC_MAP + SCHEDULER type", "NVUE egress-scheduler", "EOS tx-queue priority strict", "NX-OS set qos-group + priority level"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("the queue DSCP %d lands in is strict priority", r.CNPDSCP)
		},
		Hint: "schedule the CNP queue strict priority",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			if !p.DSCPToTC.HasValue() || p.DSCPToTC.Status == topology.FactUnsupported {
				return switchFact(p.DSCPToTC, "DSCP to traffic-class map", func(map[int]int) verdict { return verdict{} })
			}
			return switchFact(p.Scheduler, "queue scheduler", func(sch map[int]string) verdict {
				m := p.DSCPToTC.Value
				tc, ok := m[r.CNPDSCP]
				if !ok {
					return verdict{status: Fail, actual: landing(p, m, r.CNPDSCP),
						message:  fmt.Sprintf("the CNP DSCP %d has no class on this port, so CNPs have no queue of their own", r.CNPDSCP),
						evidence: ev(p.DSCPToTC.Evidence())}
				}
				if roce := p.ClassOf(r.RoCEPriority); tc == roce {
					return verdict{status: Fail, actual: landing(p, m, r.CNPDSCP),
						message:  fmt.Sprintf("CNPs land in the RoCE class %d, not in a strict queue of their own (see SW-DSCP-MAP)", roce),
						evidence: ev(p.DSCPToTC.Evidence())}
				}
				q := p.QueueOf(tc)
				s, ok := sch[q]
				if !ok {
					return verdict{status: Error, actual: fmt.Sprintf("DSCP %d -> class %d, queue %d not reported", r.CNPDSCP, tc, q),
						message: fmt.Sprintf("the switch's scheduler configuration does not mention queue %d", q)}
				}
				actual := "DSCP " + strconv.Itoa(r.CNPDSCP) + " -> class " + strconv.Itoa(tc) + ", queue " + strconv.Itoa(q) + " " + s
				if s == "strict" {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: fmt.Sprintf("CNPs land in queue %d, which is scheduled %s, not strict priority", q, s)}
			})
		},
	}
}

func swDCBX() *Check {
	return &Check{
		ID: "SW-DCBX", Title: "DCBX mode matches recipe.dcbx",
		Scope: ScopeSwitchPort, Severity: SevError,
		Rationale: "Mixing DCBX-negotiated ports (NX-OS `priority-flow-control mode auto`, EOS `dcbx mode`) " +
			"with static ones lets PFC silently differ between the two ends of a link.",
		Sources:  []string{"IEEE 802.1Qaz", "NX-OS priority-flow-control mode", "EOS dcbx mode"},
		Expected: func(r recipe.Recipe) string { return "DCBX mode " + r.DCBX },
		Hint:     "use the same DCB regime on every port",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			return switchFact(p.DCBX, "DCBX mode", func(d topology.DCBX) verdict {
				actual := d.Mode
				if d.Detail != "" {
					actual += " (" + d.Detail + ")"
				}
				if d.Mode == r.DCBX {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "the port's DCB regime does not match the recipe"}
			})
		},
	}
}

func swBuffer() *Check {
	return &Check{
		ID: "SW-BUFFER", Title: "lossless buffer / headroom profile on the RoCE priority group",
		Scope: ScopeSwitchPort, Severity: Warning,
		Rationale: "PFC only works with headroom reserved for the frames in flight after a pause is sent; " +
			"a lossy buffer profile on the RoCE priority group drops them anyway. Only the RoCE group is " +
			"judged: what other groups bind does not change it. On SONiC's dynamic buffer model a lossless " +
			"group's profile reads NULL because the buffer manager computes it.",
		Sources: []string{"SONiC BUFFER_PG / BUFFER_PROFILE (traditional and dynamic models)", "NVUE qos roce mode lossless", "NX-OS network-qos pause pfc-cos"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("lossless profile on priority group %d", r.RoCEPriority)
		},
		Hint: "bind a lossless buffer profile to the RoCE priority group",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			pg := p.ClassOf(r.RoCEPriority)
			return switchFact(p.Buffer, "buffer profile", func(b topology.Buffer) verdict {
				if slices.Contains(b.Unreadable, pg) {
					return verdict{status: Error, actual: fmt.Sprintf("priority group %d: profile unreadable", pg),
						message: b.PGs[pg]}
				}
				lossless := slices.Contains(b.LosslessPGs, pg)
				var actual string
				d, ok := b.PGs[pg]
				switch {
				case ok:
					actual = "priority group " + strconv.Itoa(pg) + ": " + d
				case lossless:
					actual = "priority group " + strconv.Itoa(pg) + " lossless"
				default:
					actual = "no lossless buffer on priority group " + strconv.Itoa(pg)
				}
				if !ok && b.Profile != "" {
					actual += " (" + b.Profile + ")"
				}
				if lossless {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: "the RoCE priority group has no lossless buffer"}
			})
		},
	}
}

// sortedInts is s sorted, s itself when it is already (read only: it may be a fact's).
func sortedInts(s []int) []int {
	if slices.IsSorted(s) {
		return s
	}
	return slices.Sorted(slices.Values(s))
}
