package reports

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/recipe"
)

// SimulationBanner opens every report of the built-in lab: a simulation must never pass for an audit.
const SimulationBanner = "SIMULATION: built-in lab, not a real fabric"

// bannerText is what a report must say before anything else: that it is partial (the run
// was stopped), that it comes from the simulation (with the report's note), or both.
func bannerText(r *Report) string {
	var parts []string
	if r.Interrupted != "" {
		parts = append(parts, "PARTIAL REPORT: "+r.Interrupted+"; devices not collected are errors")
	}
	if r.Simulated {
		sim := SimulationBanner
		if r.Note != "" {
			sim += " (" + r.Note + ")"
		}
		parts = append(parts, sim)
	}
	return strings.Join(parts, " · ")
}

// hasBanner says whether bannerText has anything to say.
func hasBanner(r *Report) bool { return r.Simulated || r.Interrupted != "" }

// timeText keeps the report's own time zone so output depends only on the Report.
func timeText(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.Format(time.RFC3339)
}

// durationText is the audit's wall time, or "" when either end is unknown.
func durationText(r *Report) string {
	if r.Started.IsZero() || r.Finished.IsZero() || r.Finished.Before(r.Started) {
		return ""
	}
	return r.Finished.Sub(r.Started).Round(time.Millisecond).String()
}

// runText is the one-line identity of the run: tool version, start, duration.
func runText(r *Report) string {
	s := "roceaudit"
	if r.ToolVersion != "" {
		s += " " + r.ToolVersion
	}
	s += ", started " + timeText(r.Started)
	if d := durationText(r); d != "" {
		s += ", took " + d
	}
	return s
}

// recipeText is the recipe the report was checked against, in one line.
func recipeText(rc recipe.Recipe) string {
	tos := make([]string, len(rc.RoCEToS))
	for i, t := range rc.RoCEToS {
		tos[i] = strconv.Itoa(t)
	}
	wd := "off"
	if rc.PFCWatchdog {
		wd = "on"
	}
	return fmt.Sprintf("RoCE priority %d, DSCP %d, ToS %s; CNP DSCP %d priority %d; MTU host %d, switch %d, RoCE %d; DCBX %s; PFC watchdog %s; min bandwidth %s",
		rc.RoCEPriority, rc.RoCEDSCP, strings.Join(tos, "/"), rc.CNPDSCP, rc.CNPPriority,
		rc.HostMTU, rc.SwitchMTU, rc.RoCEMTU, rc.DCBX, wd, percent(rc.MinBandwidthRatio))
}

func percent(ratio float64) string {
	return strconv.FormatFloat(ratio*100, 'f', -1, 64) + "%"
}

// deviceKind is "linux host", "sonic switch", or what is known of the two.
func deviceKind(d DeviceSummary) string {
	return strings.TrimSpace(d.Platform + " " + string(d.Role))
}

// excerptLines splits evidence output into lines with tabs expanded (so indenting it keeps
// its columns) and trailing blanks trimmed. max > 0 keeps the first max lines and says how
// many were left out.
func excerptLines(s string, max int) (lines []string, omitted int) {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n ")
	s = strings.TrimLeft(s, "\n")
	if s == "" {
		return nil, 0
	}
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.TrimRight(expandTabs(l, 8), " "))
	}
	if max > 0 && len(lines) > max {
		return lines[:max], len(lines) - max
	}
	return lines, 0
}

func expandTabs(s string, width int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := width - col%width
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// gidText shows a transfer's GID indexes as "3 -> 3" (from -> to), or key=value otherwise.
func gidText(m map[string]int) string {
	from, okF := m["from"]
	to, okT := m["to"]
	if okF && okT && len(m) == 2 {
		return fmt.Sprintf("%d -> %d", from, to)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func gbpsText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " Gb/s" }

// bandwidthText is a transfer's bandwidth, or "did not run" when it has an error and no
// measurement: a transfer that never ran has no bandwidth, not 0 Gb/s.
func bandwidthText(t Transfer) string {
	if t.Error != "" && t.BandwidthGbps == 0 {
		return "did not run"
	}
	return gbpsText(t.BandwidthGbps)
}

// linkText is the slowest link's speed, or "-" when unknown.
func linkText(t Transfer) string {
	if t.LinkGbps <= 0 {
		return "-"
	}
	return gbpsText(t.LinkGbps)
}

// shareText is bandwidth as a share of the link, or "-" with no link speed.
func shareText(t Transfer) string {
	if t.LinkGbps <= 0 || (t.Error != "" && t.BandwidthGbps == 0) {
		return "-"
	}
	return strconv.FormatFloat(t.BandwidthGbps/t.LinkGbps*100, 'f', 1, 64) + "%"
}

func latencyText(l *Latency) string {
	if l == nil {
		return "-"
	}
	return fmt.Sprintf("%s / %s us", strconv.FormatFloat(l.Typical, 'f', -1, 64), strconv.FormatFloat(l.P99, 'f', -1, 64))
}

// deltaText signs a counter delta so a rise stands out.
func deltaText(v int64) string {
	if v > 0 {
		return "+" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

// counterRow is one counter delta of one hop.
type counterRow struct {
	Device, Interface, Counter string
	Delta                      int64
}

// changedCounters lists the counters that moved during a transfer (in hop order, then by
// name) and how many stayed still.
func changedCounters(t Transfer) (rows []counterRow, unchanged int) {
	for _, h := range t.Hops {
		for _, k := range slices.Sorted(maps.Keys(h.CounterDeltas)) {
			v := h.CounterDeltas[k]
			if v == 0 {
				unchanged++
				continue
			}
			rows = append(rows, counterRow{h.Device, h.Interface, k, v})
		}
	}
	return rows, unchanged
}

// hopPort renders an empty port as "-" in tables.
func hopPort(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
