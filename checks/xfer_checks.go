package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func transferChecks() []*Check {
	return []*Check{xferRun(), xferBW(), xferRetrans(), xferPause(), xferCoverage()}
}

// xferPath names a transfer like path results do, with the member it took when --all-paths
// ran one transfer per member ("a->b (path 2 via spine1)").
func xferPath(x topology.Transfer) string {
	n := PathName{Pair: x.From.String() + "->" + x.To.String()}
	if x.Coverage == nil || x.Coverage.AllPaths {
		n.Member = x.Member
	}
	return n.String()
}

// transportKind is the failure kind that means packets were lost on the way.
const transportKind = "transport"

func xferRun() *Check {
	return &Check{
		ID: "XFER-RUN", Title: "perftest ran to completion with the v2 GID index on both ends",
		Scope: ScopeTransfer, Severity: Critical,
		Rationale: "A configuration can look right and still lose packets; the test transfer proves " +
			"the path. It must use each end's RoCE v2 GID, or it tests a path the applications never take.",
		Sources:  []string{"perftest ib_write_bw"},
		Expected: func(recipe.Recipe) string { return "ib_write_bw completes with the RoCE v2 GID index at both ends" },
		transfer: func(_ recipe.Recipe, x topology.Transfer) verdict {
			src := &topology.Evidence{Command: x.ClientCommand, Excerpt: lastLines(x.Output, 8), Error: x.Error}
			switch {
			case x.Ran && x.ServerLeftover != "":
				// It measured, but left a process on the host: say so, and what bounds it.
				return verdict{status: Warn, actual: fmt.Sprintf("ran with GID index %d -> %d; server left running", x.GIDIndex["from"], x.GIDIndex["to"]),
					message: x.ServerLeftover, evidence: src,
					remediation: "let the login use sudo (which relays the stop) or a non-root account, or check the host's sshd (it must allow terminals)"}
			case x.Ran:
				return verdict{status: Pass, actual: fmt.Sprintf("ran with GID index %d -> %d", x.GIDIndex["from"], x.GIDIndex["to"])}
			case x.ErrorKind == transportKind:
				return verdict{status: Fail, actual: "transport error", message: x.Error, evidence: src,
					remediation: "packets are lost on the path: see XFER-RETRANS and the PFC/ECN checks of its hops"}
			}
			fix, platformFix := "see the error; `roceaudit gids` with the same inventory lists the GIDs of "+x.From.Device, false
			switch x.ErrorKind {
			case "not-installed": // the host platform names its installer
				fix, platformFix = "", true
			case "setup":
				fix = "give the endpoints a RoCE v2 GID on an IPv4 address (HOST-GID-V2) and make them reachable"
			}
			msg := x.Error
			if x.ServerLeftover != "" {
				msg += "; " + x.ServerLeftover
			}
			return verdict{status: Error, actual: "did not run", message: msg, evidence: src, remediation: fix, platformFix: platformFix}
		},
	}
}

func xferBW() *Check {
	return &Check{
		ID: "XFER-BW", Title: "bandwidth >= min_bandwidth_ratio x slowest link speed",
		Scope: ScopeTransfer, Severity: SevError,
		Rationale: "A lossless path runs RDMA writes near line rate. Far below it, something on the path " +
			"drops or pauses: go-back-N retransmission or PFC storms cut throughput sharply.",
		Sources: []string{"perftest ib_write_bw --report_gbits"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf(">= %.0f%% of the slowest link", r.MinBandwidthRatio*100)
		},
		Hint: "find the lossy hop with XFER-RETRANS and fix its PFC/ECN configuration",
		transfer: func(r recipe.Recipe, x topology.Transfer) verdict {
			if !x.Ran {
				return verdict{status: Skip, actual: "no result", message: "the transfer did not complete (see XFER-RUN)"}
			}
			actual := fmt.Sprintf("%.1f Gb/s", x.BandwidthGbps)
			if x.LinkGbps <= 0 {
				return verdict{status: Error, actual: actual, message: "the link speed of the path is unknown",
					evidence: &topology.Evidence{Command: x.ClientCommand, Excerpt: lastLines(x.Output, 4)}}
			}
			actual += fmt.Sprintf(" of %s Gb/s (%.0f%%)", gbps(x.LinkGbps), 100*x.BandwidthGbps/x.LinkGbps)
			link := "the slowest link"
			if x.SlowestLink != "" {
				actual += ", slowest link " + x.SlowestLink
				link = fmt.Sprintf("the slowest link (%s, %s Gb/s)", x.SlowestLink, gbps(x.LinkGbps))
			}
			if x.BandwidthGbps >= r.MinBandwidthRatio*x.LinkGbps {
				return verdict{status: Pass, actual: actual}
			}
			msg := "bandwidth far below " + link
			fix := "find the lossy hop (XFER-RETRANS) and fix its PFC/ECN configuration"
			hop, what := worstLoss(r, x)
			if hop != "" {
				msg += "; " + hop + ": " + what
			} else if c, ok := readPause(r, x).throttler(); ok {
				// Nothing was lost: PFC held the flow back, from the port XFER-PAUSE names.
				msg += "; nothing was lost, but " + c.Port + " paused the transfer with PFC (XFER-PAUSE)"
				fix = drainFix(c)
			}
			return verdict{status: Fail, actual: actual, message: msg,
				evidence:    &topology.Evidence{Command: x.ClientCommand, Excerpt: lastLines(x.Output, 4)},
				remediation: fix}
		},
	}
}

// gbps prints a link speed without trailing zeros: 100, 25, 2.5, 0.1.
func gbps(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func xferRetrans() *Check {
	return &Check{
		ID: "XFER-RETRANS", Title: "no retransmission / out-of-sequence / RoCE-queue drop counter rose on any hop",
		Scope: ScopeTransfer, Severity: Critical,
		Rationale: "On a lossless path nothing is dropped: a RoCE-queue drop on a switch port, or " +
			"out-of-sequence / retransmission counters on a host, point at the hop that is not lossless.",
		Sources:  []string{"mlx5 hw_counters (out_of_sequence, packet_seq_err, local_ack_timeout_err)", "switch queue and PFC counters"},
		Expected: func(recipe.Recipe) string { return "no loss counter rises during the transfer" },
		Hint:     "enable PFC on the RoCE priority (and ECN) on the hop whose counters rose",
		transfer: func(r recipe.Recipe, x topology.Transfer) verdict {
			if !x.Ran && x.ErrorKind != transportKind {
				return verdict{status: Skip, actual: "no transfer", message: "the transfer did not run (see XFER-RUN)"}
			}
			if len(x.Hops) == 0 {
				msg := "no counters could be compared"
				if x.CounterError != "" {
					msg += ": " + x.CounterError
				}
				return verdict{status: Error, actual: "unknown", message: msg, evidence: &topology.Evidence{Error: x.CounterError}}
			}
			losses := lossLines(r, x)
			if len(losses) == 0 && (len(x.UnsampledPorts) > 0 || x.CounterError != "") {
				msg := fmt.Sprintf("no loss counter rose on the %d sampled ports, but the counters of %s could not be compared",
					len(x.Hops), strings.Join(x.UnsampledPorts, ", "))
				if x.CounterError != "" {
					msg += ": " + x.CounterError
				}
				return verdict{status: Error, actual: "incomplete", message: msg,
					evidence: &topology.Evidence{Command: "counters before and after the transfer", Error: x.CounterError}}
			}
			blind := blindHops(x)
			if len(losses) == 0 {
				v := verdict{status: Pass, actual: fmt.Sprintf("no loss counter rose on %d sampled ports", len(x.Hops))}
				if len(blind) > 0 {
					v.message = "the hosts saw no loss; " + blindNote(blind)
				}
				return v
			}
			fix := fmt.Sprintf("check PFC on priority %d and ECN on %s (roceaudit audit --path %s,%s)", r.RoCEPriority, losses[0].where, x.From, x.To)
			if len(x.Paths) == 0 {
				fix = "no known path joins the endpoints (see PATH-RESOLVED): check the cabling and addressing between them"
			}
			msg := strings.Join(texts(losses), "; ")
			if len(blind) > 0 {
				msg += "; " + blindNote(blind)
			}
			// The result sits on the hop that lost packets, not on the transfer's client.
			device, iface, _ := strings.Cut(losses[0].where, ":")
			return verdict{status: Fail, actual: losses[0].text, message: msg,
				evidence:    &topology.Evidence{Command: "counters before and after the transfer", Excerpt: strings.Join(texts(losses), "\n")},
				remediation: fix, device: device, iface: iface}
		},
	}
}

// blindHops are switch ports whose collector reads no drop counter at all (EOS and NX-OS give
// pause counts only): loss there is seen only as retransmissions on the hosts.
func blindHops(x topology.Transfer) []string {
	var out []string
	for _, h := range x.Hops {
		if h.Role != topology.RoleSwitch {
			continue
		}
		hasDrop := false
		for k := range h.CounterDeltas {
			if n := strings.ToLower(k); strings.Contains(n, "drop") || strings.Contains(n, "discard") {
				hasDrop = true
				break
			}
		}
		if !hasDrop {
			out = append(out, h.Device+":"+h.Interface)
		}
	}
	return out
}

func blindNote(blind []string) string {
	return fmt.Sprintf("%d switch port(s) expose no drop counter, so a loss there shows only on the hosts: %s",
		len(blind), strings.Join(blind, ", "))
}

var numbered = regexp.MustCompile(`(?:queue|prio|pri|pg|tc)(\d+)`)

// lossCounter says whether a counter rising means loss on the RoCE traffic: per-queue or
// per-priority counters only count for the RoCE one.
func lossCounter(r recipe.Recipe, name string) bool {
	n := strings.ToLower(name)
	if m := numbered.FindStringSubmatch(n); m != nil {
		if q, _ := strconv.Atoi(m[1]); q != r.RoCEPriority {
			return false
		}
	}
	return topology.IsLossCounter(n)
}

type loss struct {
	where, text string
	total       int64
	isSwitch    bool
}

func texts(ls []loss) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// lossLines describes every port where loss counters rose, switch ports first, worst first:
// "leaf2 Ethernet12: 18,204 drops on queue 3 during the transfer; PFC pause frames received: 0".
func lossLines(r recipe.Recipe, x topology.Transfer) []loss {
	var out []loss
	for _, h := range x.Hops {
		var parts []string
		var total int64
		names := make([]string, 0, len(h.CounterDeltas))
		for k := range h.CounterDeltas {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if v := h.CounterDeltas[k]; v > 0 && lossCounter(r, k) {
				parts = append(parts, fmt.Sprintf("%s +%s", k, thousands(v)))
				total += v
			}
		}
		if len(parts) == 0 {
			continue
		}
		pause := int64(0)
		for k, v := range h.CounterDeltas {
			if strings.Contains(k, fmt.Sprintf("pause_prio%d", r.RoCEPriority)) && strings.Contains(k, "rx") {
				pause += v
			}
		}
		text := fmt.Sprintf("%s %s: %s during the transfer; PFC pause frames received on priority %d: %s",
			h.Device, h.Interface, strings.Join(parts, ", "), r.RoCEPriority, thousands(pause))
		out = append(out, loss{where: h.Device + ":" + h.Interface, text: text, total: total, isSwitch: h.Role == topology.RoleSwitch})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].isSwitch != out[j].isSwitch {
			return out[i].isSwitch
		}
		return out[i].total > out[j].total
	})
	return out
}

func worstLoss(r recipe.Recipe, x topology.Transfer) (string, string) {
	ls := lossLines(r, x)
	if len(ls) == 0 {
		return "", ""
	}
	where, what, _ := strings.Cut(ls[0].text, ": ")
	return where, what
}

func thousands(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
