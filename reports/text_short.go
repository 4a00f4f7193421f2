package reports

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// The default text report is what someone acts on: one line per finding and its fix, one
// line per path and transfer. Evidence, hop tables and counter deltas are behind -v.

// finding prints one finding on one line, then its remediation.
func (t *textWriter) finding(res *checks.Result, also []*checks.Result) {
	head := t.tag(res.Status) + paint(t.p.bold, res.Check)
	for _, a := range also {
		head += ", " + paint(t.p.bold, a.Check)
	}
	if sev := lineSeverity(*res); sev != "" {
		head += "  " + sev
	}
	if s := findingText(*res, t.devErr, !t.inFabric); s != "" {
		head += "  " + s
	}
	// A one-line fix shares the finding's line; a longer one hangs under it, ready to paste.
	// Folded to a width, a fix that would not fit whole on the finding's last line hangs
	// too: a command is never folded, since a pasted newline would run half of it.
	lines, _ := excerptLines(res.Remediation, 0)
	head = resultIndent + head
	hang := len(lines) > 1
	if len(lines) == 1 {
		fix := "  " + paint(t.p.label, "fix:") + " " + lines[0]
		folded := wrapLine(head, t.width, detailIndent)
		if t.width > 0 && visibleWidth(folded[len(folded)-1]+fix) > t.width {
			hang = true
		} else {
			head += fix
		}
	}
	t.prose(detailIndent, head)
	if !hang {
		return
	}
	for i, l := range lines {
		if i == 0 {
			t.line(detailIndent, paint(t.p.label, "fix:"), " ", l)
		} else {
			t.line(detailIndent, "     ", l)
		}
	}
}

// findingText is "path: message: actual, expected X", leaving out what says nothing new.
func findingText(res checks.Result, devErr string, withPath bool) string {
	msg := res.Message
	if msg == devErr {
		msg = ""
	}
	var parts []string
	if withPath && res.Path != "" {
		parts = append(parts, res.Path)
	}
	if msg != "" {
		parts = append(parts, msg)
	}
	if res.Actual != "" && !strings.Contains(msg, res.Actual) {
		parts = append(parts, res.Actual)
	}
	// An error's evidence says why the check could not decide.
	if ev := res.Evidence; res.Status == checks.Error && ev != nil && ev.Error != "" && ev.Error != devErr && !strings.Contains(msg, ev.Error) {
		parts = append(parts, ev.Error)
	}
	s := strings.Join(parts, ": ")
	if res.Expected != "" && res.Status != checks.Skip {
		s += ", expected " + res.Expected
	}
	return oneLine(strings.TrimPrefix(s, ", "))
}

// oneLine collapses every run of white space, newlines included, to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// pathLine is "A -> B: 2 equal-cost paths via leaf1>spine1>leaf3, leaf1>spine2>leaf3".
func pathLine(p Path) string {
	if len(p.Paths) == 0 {
		return p.From + " -> " + p.To + ": no path found"
	}
	via := make([]string, 0, len(p.Paths))
	for _, hops := range p.Paths {
		var devs []string
		for i, h := range hops {
			if i > 0 && i < len(hops)-1 {
				devs = append(devs, h.Device)
			}
		}
		if len(devs) > 0 {
			via = append(via, strings.Join(devs, ">"))
		}
	}
	s := p.From + " -> " + p.To + ": " + plural(len(p.Paths), "equal-cost path", "equal-cost paths")
	if len(via) > 0 {
		s += " via " + strings.Join(via, ", ")
	}
	return s
}

// transferLine is "A -> B: 21.3 of 100 Gb/s, latency 2.1 us typical, 3.4 us p99, lossy hop
// leaf1 Ethernet12", or why it did not run; latency only when measured (--latency).
func transferLine(x Transfer, results []checks.Result) string {
	s := x.From + " -> " + x.Label() + ": "
	switch {
	case x.Error != "" && x.BandwidthGbps == 0:
		s += "did not run: " + x.Error
	case x.LinkGbps > 0:
		s += strconv.FormatFloat(x.BandwidthGbps, 'f', -1, 64) + " of " + gbpsText(x.LinkGbps)
	default:
		s += gbpsText(x.BandwidthGbps)
	}
	if l := x.LatencyUS; l != nil {
		s += ", latency " + strconv.FormatFloat(l.Typical, 'f', -1, 64) + " us typical, " +
			strconv.FormatFloat(l.P99, 'f', -1, 64) + " us p99"
	}
	if hops := lossyHops(x, results); len(hops) > 0 {
		s += ", lossy hop " + strings.Join(hops, ", ")
	}
	return oneLine(s)
}

// lossyHops are the ports the transfer's failing XFER-RETRANS results name.
func lossyHops(x Transfer, results []checks.Result) []string {
	var hops []string
	for _, r := range results {
		if r.Check == "XFER-RETRANS" && r.Status == checks.Fail && r.Interface != "" && sameTransfer(r.Path, x) {
			hops = append(hops, r.Device+" "+r.Interface)
		}
	}
	return hops
}

// sameTransfer reports whether a result's path names transfer x (and, for one member's
// transfer under --all-paths, that member).
func sameTransfer(path string, x Transfer) bool {
	n := checks.ParsePathName(path)
	if x.Member != "" && n.Member != "" {
		return n == checks.PathName{Pair: x.From + "->" + x.To, Member: x.Member}
	}
	return n.Pair == x.From+"->"+x.To
}

// objects lists each failing object (a device, a port, a path) once, with its findings; a
// device whose checks all passed or were not applicable is in the summary only.
func (t *textWriter) objects(groups []deviceGroup) {
	first := true
	for _, g := range groups {
		if !g.hasFindings() {
			continue
		}
		if first {
			t.line()
			first = false
		}
		kind, status := t.deviceNote(g)
		t.inFabric = g.Fabric
		name := paint(t.p.bold, g.Device.Name)
		if status != "" && (len(g.Groups) == 0 || g.Groups[0].Label != "" || !g.Groups[0].hasFindings()) {
			// Unreadable, and no device-level finding to carry the status.
			t.prose("  ", joinNotes(name, kind, status))
			status = ""
		}
		for _, grp := range g.Groups {
			if !grp.hasFindings() {
				continue
			}
			switch {
			case grp.Label == "":
				t.prose("  ", joinNotes(name, kind, status))
				status = ""
			case g.Fabric:
				t.line(paint(t.p.bold, "path "+grp.Label))
			default:
				t.line(joinNotes(paint(t.p.bold, g.Device.Name+" "+grp.Label), kind))
			}
			for _, same := range sameFinding(grp.Problems) {
				if same[0].Status != checks.Skip {
					t.finding(same[0], same[1:])
				}
			}
		}
	}
}
