package checks

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func xferCoverage() *Check {
	return &Check{
		ID: "XFER-COVERAGE", Title: "every equal-cost member of the path set carried a test transfer",
		Scope: ScopeTransfer, Severity: SevError,
		Rationale: "Switches spread RoCE v2 flows over equal-cost members by a hash of the 5-tuple, whose " +
			"UDP source port the NIC derives from the QP's GRH flow label. One transfer tests one member: a " +
			"bad spine or uplink on another stays unseen. With --all-paths the transfer steps perftest's " +
			"--flow_label until the traffic counters of every member's own ports show it carried a test " +
			"(within 4 x members attempts, at most 64, and 10 minutes), and fails naming the members never " +
			"reached (a hash that ignores the UDP ports, a member whose ports are down). Without --all-paths " +
			"the result only names the member the single test took and skips judging the others. It cannot " +
			"decide (error) when no traffic counter was read on the ports that tell the members apart. The " +
			"attribution assumes the test dominates those ports while it runs.",
		Sources: []string{
			"Linux include/rdma/ib_verbs.h rdma_flow_label_to_udp_sport, rdma_calc_flow_label (mlx5 drivers/infiniband/hw/mlx5/qp.c)",
			"linux-rdma/perftest src/perftest_parameters.c --flow_label (set on the QP in perftest_resources.c ctx_modify_qp_to_rtr)",
			"RFC 2992 (ECMP hashing on the 5-tuple)",
		},
		Expected: func(recipe.Recipe) string { return "a test transfer on every equal-cost member (--all-paths)" },
		Hint:     "run the transfer with --all-paths; for a member never reached, check the switch's ECMP hash fields include the L4 ports",
		transfer: xferCoverageVerdict,
	}
}

// xferCoverageVerdict judges the first transfer of a pair (the one carrying the coverage);
// the per-member transfers give no result of their own.
func xferCoverageVerdict(_ recipe.Recipe, x topology.Transfer) verdict {
	c := x.Coverage
	if c == nil {
		if len(x.Paths) == 0 && x.Error != "" {
			return verdict{status: Skip, actual: "no path set", message: "the transfer did not start (see XFER-RUN)"}
		}
		return verdict{}
	}
	n := len(c.Members)
	if c.Error != "" {
		return verdict{status: Error, actual: "members unknown", message: c.Error,
			remediation: "make the switches' per-port byte or packet counters readable to the audit account"}
	}
	if !x.Ran && x.ErrorKind != transportKind && len(c.Missing()) == n {
		return verdict{status: Skip, actual: "no transfer", message: "the transfer did not run (see XFER-RUN)"}
	}
	var carried, missing []string
	for _, m := range c.Members {
		if m.Carried {
			carried = append(carried, m.Name())
		} else {
			missing = append(missing, m.Name())
		}
	}
	labels := make([]string, 0, len(c.Attempts))
	for _, a := range c.Attempts {
		labels = append(labels, fmt.Sprint(a.FlowLabel))
	}
	actual := fmt.Sprintf("%d of %d members carried a test", len(carried), n)
	if c.AllPaths {
		actual += fmt.Sprintf(" (%d attempts, flow labels %s)", len(c.Attempts), strings.Join(labels, ","))
	}
	switch {
	case len(missing) == 0:
		return verdict{status: Pass, actual: actual, message: strings.Join(carried, "; ")}
	case !c.AllPaths:
		took := "no member could be told"
		if len(carried) > 0 {
			took = strings.Join(carried, "; ") + " carried the test"
		}
		return verdict{status: Skip, actual: actual, message: took + "; untested: " + strings.Join(missing, "; ") + " (run with --all-paths)"}
	}
	msg := "never reached: " + strings.Join(missing, "; ")
	if c.Bound != "" {
		msg += " within " + c.Bound
	}
	cmd := x.ClientCommand
	if len(labels) > 1 {
		cmd += fmt.Sprintf(" (one run per --flow_label: %s)", strings.Join(labels, ","))
	}
	where := "the switches"
	if d := splitDevice(x.Paths); d != "" {
		where = d + ", where the members part,"
	}
	return verdict{status: Fail, actual: actual, message: msg,
		evidence: &topology.Evidence{Command: cmd, Excerpt: "ports that tell the members apart: " + memberPorts(c)},
		remediation: "make " + where + " hash RoCE flows on the L4 ports too (UDP source port), and check the " +
			"unreached members' ports are up; a polarized hash puts every flow of a host pair on one member"}
}

// splitDevice is the first switch whose next hop differs between the equal-cost members: the
// one whose hash chose among them. "" when the members never part (one member).
func splitDevice(paths [][]topology.Hop) string {
	if len(paths) < 2 {
		return ""
	}
	for i, h := range paths[0] {
		for _, p := range paths[1:] {
			if i >= len(p) || p[i].Device != h.Device {
				if i == 0 {
					return ""
				}
				return paths[0][i-1].Device
			}
			if p[i].OutPort != h.OutPort {
				return h.Device
			}
		}
	}
	return ""
}

func memberPorts(c *topology.Coverage) string {
	var parts []string
	for _, m := range c.Members {
		parts = append(parts, fmt.Sprintf("path %d: %s", m.Path, strings.Join(m.Ports, ", ")))
	}
	return strings.Join(parts, "; ")
}
