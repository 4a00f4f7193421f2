package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func hostTrust() *Check {
	return &Check{
		ID: "HOST-TRUST", Title: "trust mode is DSCP",
		Scope: ScopeHostPort, Severity: Critical,
		Rationale: "With PCP trust the NIC classifies RoCE by VLAN priority, which routed RoCEv2 does not " +
			"carry end to end; DSCP trust puts DSCP-26 traffic on the lossless priority everywhere.",
		Sources:  []string{"mlnx-tools mlnx_qos", "iproute2 dcb-app(8)"},
		Expected: func(recipe.Recipe) string { return "trust dscp" },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.QoS.Usable() {
				return unknown("trust mode", p.QoS.Source)
			}
			if p.QoS.Value.Trust == "" {
				return trustNotReported(p)
			}
			actual := "trust " + p.QoS.Value.Trust
			if p.QoS.Value.Trust == "dscp" {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "the NIC does not trust DSCP",
				evidence: ev(p.QoS.Source)}
		},
	}
}

// trustNotReported: old mlnx_qos (before MLNX_OFED 4.2) prints no trust state; undecidable.
func trustNotReported(p *topology.HostPort) verdict {
	src := p.QoS.Source
	return verdict{status: Error, actual: "not reported",
		message:  p.QoS.Value.Tool + " did not report the trust state (mlnx-tools older than MLNX_OFED 4.2?); check with `dcb app show dev " + p.Netdev + "`",
		evidence: &src}
}

func hostDSCPMap() *Check {
	return &Check{
		ID: "HOST-DSCP-MAP", Title: "roce_dscp maps to roce_priority",
		Scope: ScopeHostPort, Severity: Critical,
		Rationale: "The DSCP the traffic carries must land on the PFC-enabled priority, or RoCE runs " +
			"in a lossy queue while PFC protects an empty one.",
		Sources:  []string{"mlnx-tools mlnx_qos (dscp2prio)", "iproute2 dcb-app(8)"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("DSCP %d -> priority %d", r.RoCEDSCP, r.RoCEPriority) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.QoS.Usable() {
				return unknown("DSCP to priority map", p.QoS.Source)
			}
			q := p.QoS.Value
			if q.Trust == "" {
				return trustNotReported(p)
			}
			if q.Trust != "dscp" {
				return verdict{status: Skip, actual: "trust " + q.Trust, message: "the DSCP map is not used while trust is " + q.Trust + " (see HOST-TRUST)"}
			}
			prio, ok := q.DSCPToPrio[r.RoCEDSCP]
			actual := "DSCP " + strconv.Itoa(r.RoCEDSCP) + " -> priority " + strconv.Itoa(prio)
			if !ok {
				actual = fmt.Sprintf("DSCP %d not mapped", r.RoCEDSCP)
			}
			if ok && prio == r.RoCEPriority {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "RoCE DSCP does not map to the RoCE priority",
				evidence: ev(p.QoS.Source)}
		},
	}
}

func prioList(bits [8]bool) []int {
	var out []int
	for i, on := range bits {
		if on {
			out = append(out, i)
		}
	}
	return out
}

// Priorities renders a priority set for people.
func Priorities(ps []int) string {
	switch {
	case len(ps) == 0:
		return "no priority"
	case len(ps) == 1 && ps[0] >= 0 && ps[0] < len(onePriority):
		return onePriority[ps[0]] // most ports' and links' texts: not built each time
	case len(ps) == 1:
		return "priority " + strconv.Itoa(ps[0])
	}
	b := append(make([]byte, 0, 16+3*len(ps)), "priorities "...)
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return string(b)
}

var onePriority = [...]string{"priority 0", "priority 1", "priority 2", "priority 3", "priority 4", "priority 5", "priority 6", "priority 7"}

func hostPFC() *Check {
	return &Check{
		ID: "HOST-PFC", Title: "PFC on roce_priority and on no other priority",
		Scope: ScopeHostPort, Severity: Critical,
		Rationale: "PFC makes the RoCE priority lossless. Missing, RoCE drops under congestion and " +
			"go-back-N retransmission collapses throughput; on extra priorities, pause spreads to " +
			"traffic that should never stop (head-of-line blocking, deadlock risk).",
		Sources:  []string{"IEEE 802.1Qbb", "mlnx-tools mlnx_qos", "iproute2 dcb-pfc(8)"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("PFC on priority %d only", r.RoCEPriority) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.QoS.Usable() {
				return unknown("PFC configuration", p.QoS.Source)
			}
			on := prioList(p.QoS.Value.PFC)
			actual := "PFC on " + Priorities(on)
			if slices.Equal(on, []int{r.RoCEPriority}) {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "PFC is not on the RoCE priority alone",
				evidence: ev(p.QoS.Source)}
		},
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func hostPause() *Check {
	return &Check{
		ID: "HOST-PAUSE", Title: "802.3x global pause RX and TX off",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "Link-level pause stops every priority at once and cannot coexist with PFC on most " +
			"NICs; it must be off so that only the RoCE priority is paused.",
		Sources:  []string{"kernel Documentation/networking/flow_control.rst", "ethtool(8) -a/-A"},
		Expected: func(recipe.Recipe) string { return "pause RX off, TX off" },
		hostPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.Pause.Usable() {
				return unknown("global pause", p.Pause.Source)
			}
			pp := p.Pause.Value
			actual := "pause RX " + onOff(pp.RX) + ", TX " + onOff(pp.TX)
			if !pp.RX && !pp.TX {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "802.3x global pause is on", evidence: ev(p.Pause.Source)}
		},
	}
}

func hostECN() *Check {
	return &Check{
		ID: "HOST-ECN", Title: "DCQCN (ECN reaction point and notification point) on roce_priority",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "Switches mark ECN; the receiver (notification point) answers with CNPs and the sender " +
			"(reaction point) slows down. Without both, congestion is left to PFC alone: pause storms and " +
			"victim flows.",
		Sources: []string{"NVIDIA MLNX_OFED DCQCN documentation (/sys/class/net/IF/ecn)"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("ECN NP and RP enabled on priority %d", r.RoCEPriority)
		},
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.DCQCN.Usable() {
				return unknown("DCQCN enablement", p.DCQCN.Source)
			}
			np, rp := p.DCQCN.Value.NP[r.RoCEPriority], p.DCQCN.Value.RP[r.RoCEPriority]
			actual := "priority " + strconv.Itoa(r.RoCEPriority) + ": notification point " + onOff(np) + ", reaction point " + onOff(rp)
			if np && rp {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "DCQCN is not fully enabled on the RoCE priority",
				evidence: ev(p.DCQCN.Source)}
		},
	}
}

func hostCNP() *Check {
	return &Check{
		ID: "HOST-CNP", Title: "CNP DSCP equals cnp_dscp (and CNP priority where the NIC exposes it)",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "CNPs must reach the sender fast: switches put DSCP 48 in a strict-priority queue. " +
			"A CNP with another DSCP queues behind data and DCQCN reacts too late.",
		Sources:  []string{"NVIDIA MLNX_OFED DCQCN documentation (roce_np/cnp_dscp, cnp_802p_prio)"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("CNP DSCP %d, priority %d", r.CNPDSCP, r.CNPPriority) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.CNP.Usable() {
				return unknown("CNP DSCP", p.CNP.Source)
			}
			c := p.CNP.Value
			actual := "CNP DSCP " + strconv.Itoa(c.DSCP)
			if c.HasPrio {
				actual += ", priority " + strconv.Itoa(c.Priority)
			}
			if c.DSCP == r.CNPDSCP && (!c.HasPrio || c.Priority == r.CNPPriority) {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "CNPs are not marked as the recipe says", evidence: ev(p.CNP.Source)}
		},
	}
}

func tosList(ts []int) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = fmt.Sprint(t)
	}
	return strings.Join(s, " or ")
}

func hostToS() *Check {
	return &Check{
		ID: "HOST-TOS", Title: "RDMA-CM default ToS is in roce_tos",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "RoCE bypasses the IP stack, so its DSCP comes from the RDMA ToS setting. Unset, " +
			"RDMA-CM traffic (NVMe-oF, iSER, NFS/RDMA) leaves with DSCP 0 and lands in a lossy queue.",
		Sources:  []string{"NVIDIA MLNX_OFED (tc/PORT/traffic_class)", "kernel rdma_cm configfs default_roce_tos"},
		Expected: func(r recipe.Recipe) string { return "ToS " + tosList(r.RoCEToS) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if bindingUnknown(p) {
				return unknown("RoCE ToS", p.State.Source)
			}
			if p.RDMADevice == "" {
				return verdict{status: Skip, actual: "no RDMA device", message: "no RDMA device bound (see HOST-RDMA-PORT)"}
			}
			if !p.ToS.Usable() {
				return unknown("RoCE ToS", p.ToS.Source)
			}
			t := p.ToS.Value
			if t.Unreadable {
				return verdict{status: Warn, actual: "not readable without a write",
					message:  "the RoCE ToS could not be read read-only; verify by hand: " + fmt.Sprintf("cma_roce_tos -d %s -p %d", p.RDMADevice, p.RDMAPort),
					evidence: ev(p.ToS.Source), platformFix: true}
			}
			if !t.Set {
				return verdict{status: Fail, actual: "no default ToS (traffic leaves with DSCP 0)", message: "no RoCE ToS is configured",
					evidence: ev(p.ToS.Source)}
			}
			actual := "ToS " + strconv.Itoa(t.Value) + " (DSCP " + strconv.Itoa(t.Value>>2) + ") from " + t.From
			if slices.Contains(r.RoCEToS, t.Value) {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "RoCE traffic is marked with the wrong DSCP", evidence: ev(p.ToS.Source)}
		},
	}
}

func hostDCBX() *Check {
	return &Check{
		ID: "HOST-DCBX", Title: "DCBX mode matches recipe.dcbx",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "Static settings and DCBX negotiation must not mix: a willing NIC in firmware DCBX " +
			"mode takes whatever the switch advertises and can silently undo the static recipe (and " +
			"lldpad can overwrite mlnx_qos settings).",
		Sources:  []string{"mlnx-tools mlnx_qos (DCBX mode)", "iproute2 dcb-dcbx(8)", "lldpad(8)"},
		Expected: func(r recipe.Recipe) string { return "DCBX mode " + r.DCBX },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.DCBX.Usable() {
				return unknown("DCBX mode", p.DCBX.Source)
			}
			actual := p.DCBX.Value.Mode
			if p.DCBX.Value.Detail != "" {
				actual += " (" + p.DCBX.Value.Detail + ")"
			}
			if p.DCBX.Value.Mode == r.DCBX {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "the host's DCB owner does not match the recipe",
				evidence: ev(p.DCBX.Source)}
		},
	}
}
