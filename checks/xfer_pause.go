package checks

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// throttledShare is the share of a transfer a culprit may pause its neighbour for and still be
// pacing: a receiver briefly pausing a line-rate flow costs it nothing measurable.
const throttledShare = 0.01

func xferPause() *Check {
	return &Check{
		ID: "XFER-PAUSE", Title: "no port throttled the transfer with PFC pause, and both ends of every link agree",
		Scope: ScopeTransfer, Severity: Warning,
		Rationale: "PFC pause spreads upstream from where traffic cannot drain: the most downstream port that " +
			"sends pause while its own egress receives none is the culprit (a slow receiver or an over-subscribed " +
			"egress), the ports paused upstream of it are victims. Tuning a victim changes nothing. Pause counters " +
			"are known to break, so the frames one end of a link sent are checked against those the other end received.",
		Sources: []string{
			"culprit/victim method for lossless Ethernet: https://www.besthub.dev/articles/how-to-troubleshoot-congestion-in-lossless-ethernet-storage-networks-part-5-9d0452a1a3a6",
			"mlx5 ethtool counters rx/tx_prio<p>_pause, _pause_duration: Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst",
			"SONiC show pfc counters; broken PFC counters: https://github.com/sonic-net/sonic-buildimage/issues/5540, https://github.com/sonic-net/SONiC/issues/167",
			"Cumulus nv show interface <if> counters qos (pfc-stats); EOS show priority-flow-control counters",
		},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("no port pauses priority %d for %.0f%% of the transfer or more; each link's two ends agree on the pause frames",
				r.RoCEPriority, throttledShare*100)
		},
		Hint:     "find why the culprit port cannot drain; leave the victims alone",
		transfer: xferPauseVerdict,
	}
}

func xferPauseVerdict(r recipe.Recipe, x topology.Transfer) verdict {
	if !x.Ran && x.ErrorKind != transportKind {
		return verdict{status: Skip, actual: "no transfer", message: "the transfer did not run (see XFER-RUN)"}
	}
	src := func(excerpt string) *topology.Evidence {
		return &topology.Evidence{Command: "counters before and after the transfer", Excerpt: excerpt, Error: x.CounterError}
	}
	pr := readPause(r, x)
	if !pr.complete {
		msg := "the PFC pause counters of " + strings.Join(x.UnsampledPorts, ", ") + " could not be read before and after the transfer"
		if len(x.Hops) == 0 {
			msg = "no counters could be compared"
		}
		if x.CounterError != "" {
			msg += ": " + x.CounterError
		}
		return verdict{status: Error, actual: "unknown", message: msg, evidence: src(""),
			remediation: "make every device on the path reachable for the whole transfer and run it again"}
	}
	t := pr.tree
	lines := pauseLines(x, r.RoCEPriority)
	var notes []string
	if len(t.Blind) > 0 {
		notes = append(notes, fmt.Sprintf("%d port(s) expose no PFC pause counter, so pause there is unseen: %s",
			len(t.Blind), strings.Join(t.Blind, ", ")))
	}
	if len(t.Mismatches) > 0 {
		m := t.Mismatches[0]
		var all []string
		for _, mm := range t.Mismatches {
			all = append(all, mm.String())
		}
		msg := "the two ends of a link disagree on the pause frames between them (a broken counter, or frames lost on the cable): " +
			strings.Join(all, "; ")
		if len(t.Culprits) > 0 {
			msg += "; taken at their word the counters name " + t.Culprits[0].Port + " as the culprit"
		}
		device, iface, _ := strings.Cut(m.Sender, ":")
		return verdict{status: Warn, actual: "pause counters disagree: " + m.String(), message: joinNotes(msg, notes),
			evidence: src(lines), device: device, iface: iface,
			remediation: fmt.Sprintf("read %s on %s and %s on %s again after a transfer: the one that stays behind is broken; "+
				"check the cable's error counters if both move", m.SentName, m.Sender, m.ReceivedName, m.Receiver)}
	}
	if len(t.Culprits) == 0 {
		v := verdict{status: Pass, actual: fmt.Sprintf("no PFC pause on priority %d on %d sampled ports", r.RoCEPriority, len(x.Hops))}
		if t.Paused {
			// Pause was counted, but no port on the path started it against the data (it
			// paused the acknowledgements going back, or began at a port without counters).
			v.actual = "no port on the path throttled the data"
			v.message = fmt.Sprintf("pause frames on priority %d were counted, but none started at a port on the path against the data", r.RoCEPriority)
		}
		v.message = joinNotes(v.message, notes)
		return v
	}
	c, throttled := pr.throttler()
	what := fmt.Sprintf("%s sent %s pause frames", c.Port, thousands(c.Frames))
	if pr.shareKnown {
		what += fmt.Sprintf(" (paused %.1f%% of the transfer)", pr.share*100)
	}
	if c.Egress != "" {
		what += " while its egress " + c.Egress + " received none"
	}
	upstream := "no port upstream was paused"
	if len(t.Victims) > 0 {
		upstream = "paused upstream: " + strings.Join(t.Victims, ", ")
	}
	if !throttled {
		return verdict{status: Pass, actual: "pacing only, from " + c.Port,
			message: joinNotes(fmt.Sprintf("%s: below %.0f%% of the transfer, pacing rather than throttling; %s", what, throttledShare*100, upstream), notes)}
	}
	msg := what + ": the transfer was throttled by PFC from there; victims " + upstream
	for _, o := range t.Culprits[1:] {
		msg += "; another path's culprit: " + o.Port
	}
	device, iface, _ := strings.Cut(c.Port, ":")
	return verdict{status: Warn, actual: "throttled by PFC: culprit " + c.Port, message: joinNotes(msg, notes),
		evidence: src(lines), remediation: drainFix(c), device: device, iface: iface}
}

// drainFix says where to look for why the culprit cannot drain.
func drainFix(c topology.PauseOrigin) string {
	dev, port, _ := strings.Cut(c.Port, ":")
	if c.Host {
		return fmt.Sprintf("find why %s cannot drain %s (a slow receiver): ethtool -S %s (rx_buffer_passed_thres_phy, "+
			"outbound_pci_stalled_rd/wr), the NIC's PCIe link (lspci -vv: LnkSta below LnkCap) and the NUMA node of the "+
			"receiving process against the NIC's", dev, port, port)
	}
	_, egress, _ := strings.Cut(c.Egress, ":")
	return fmt.Sprintf("find why %s cannot drain %s: more traffic toward it than it can send (incast, a slower next hop) "+
		"or pause from beyond the path; check that queue's ECN marking starts before PFC (SW-ECN-PFC-ORDER)", dev, egress)
}

var durationFlag = regexp.MustCompile(`\s-D\s+(\d+)`)

// pausedShare is the culprit's paused time over the transfer's: its own pause-duration counter,
// else the most its frames can pause (65535 quanta of 512 bit times each at the path's speed).
func pausedShare(c topology.PauseOrigin, x topology.Transfer) (float64, bool) {
	m := durationFlag.FindStringSubmatch(" " + x.ClientCommand)
	if m == nil {
		return 0, false
	}
	secs, _ := strconv.Atoi(m[1])
	if secs <= 0 {
		return 0, false
	}
	us := float64(c.DurationUS)
	if c.DurationUS < 0 {
		if x.LinkGbps <= 0 {
			return 0, false
		}
		us = float64(c.Frames) * 65535 * 512 / (x.LinkGbps * 1e3)
	}
	return us / (float64(secs) * 1e6), true
}

// pauseLines are the pause counters of every sampled port that has any, for the evidence.
func pauseLines(x topology.Transfer, prio int) string {
	var out []string
	for _, h := range x.Hops {
		p := topology.PauseCounts(h, prio)
		if !p.Known {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s +%d %s +%d", p.Port, p.RXName, p.RX, p.TXName, p.TX))
	}
	return strings.Join(out, "\n")
}

// joinNotes appends the notes to msg, which may be empty.
func joinNotes(msg string, notes []string) string {
	if msg == "" {
		return strings.Join(notes, "; ")
	}
	return strings.Join(append([]string{msg}, notes...), "; ")
}

// pauseReading is the one reading of a transfer's PFC pause counters: XFER-PAUSE reports it
// and XFER-BW explains a slow run by it, so the two never name different culprits.
type pauseReading struct {
	// complete: every port on the path was sampled before and after; otherwise the port
	// left out may be the real culprit, and nothing is decided.
	complete bool
	tree     topology.PauseTree
	// share is the first culprit's paused time over the transfer's, when shareKnown.
	share      float64
	shareKnown bool
}

func readPause(r recipe.Recipe, x topology.Transfer) pauseReading {
	if len(x.Hops) == 0 || len(x.UnsampledPorts) > 0 {
		return pauseReading{}
	}
	pr := pauseReading{complete: true, tree: topology.BuildPauseTree(x, r.RoCEPriority)}
	if len(pr.tree.Culprits) > 0 {
		pr.share, pr.shareKnown = pausedShare(pr.tree.Culprits[0], x)
	}
	return pr
}

// throttler is the culprit of a complete reading whose counters agree, and whether it paused
// the transfer for throttledShare or more (what XFER-PAUSE warns about) rather than pacing it.
func (pr pauseReading) throttler() (topology.PauseOrigin, bool) {
	if !pr.complete || len(pr.tree.Culprits) == 0 || len(pr.tree.Mismatches) > 0 {
		return topology.PauseOrigin{}, false
	}
	return pr.tree.Culprits[0], !pr.shareKnown || pr.share >= throttledShare
}
