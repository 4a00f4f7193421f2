package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fatih/color"

	"github.com/roceaudit/roceaudit/checks"
)

// textRenderer is the terminal format: problems in full, passes collapsed per interface.
type textRenderer struct{}

// textExcerptLines bounds evidence on a terminal; the JSON and HTML reports carry all of it.
const textExcerptLines = 6

// Result lines: 4 spaces, a tag padded to 6 ("WAIVED"), a space; details hang under the check.
const (
	resultIndent = "    "
	detailIndent = "           "
	blockIndent  = detailIndent + "  "
)

// palette is a private colour set: each colour is forced on or absent, so output never
// depends on fatih/color's global NoColor (which looks at the process's stdout, not at w).
type palette struct {
	fail, err, warn, muted, ok, bold, banner, label *color.Color
}

func newPalette(on bool) palette {
	if !on {
		return palette{}
	}
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		c.EnableColor()
		return c
	}
	return palette{
		fail:   mk(color.FgRed, color.Bold),
		err:    mk(color.FgMagenta, color.Bold),
		warn:   mk(color.FgYellow, color.Bold),
		muted:  mk(color.FgHiBlack),
		ok:     mk(color.FgGreen),
		bold:   mk(color.Bold),
		banner: mk(color.FgBlack, color.BgYellow, color.Bold),
		label:  mk(color.FgCyan),
	}
}

// paint colours s, or returns it untouched when colour is off.
func paint(c *color.Color, s string) string {
	if c == nil || s == "" {
		return s
	}
	return c.Sprint(s)
}

func (p palette) status(s checks.Status) *color.Color {
	switch s {
	case checks.Fail:
		return p.fail
	case checks.Error:
		return p.err
	case checks.Warn:
		return p.warn
	case checks.Pass:
		return p.ok
	}
	return p.muted
}

func (textRenderer) Render(w io.Writer, r *Report, opts Options) error {
	if r == nil {
		return errNilReport
	}
	r = cleanReport(r)
	t := &textWriter{p: newPalette(opts.Color), verbose: opts.Verbose, width: wrapWidth(opts)}
	t.report(r)
	if _, err := io.WriteString(w, t.b.String()); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

type textWriter struct {
	b        strings.Builder
	p        palette
	verbose  bool
	width    int // fold lines at this many columns; 0 never
	inFabric bool
	devErr   string // the device's error, already in its heading: printed once
}

// line writes one line as it is: tables, evidence and commands to paste are never folded.
func (t *textWriter) line(parts ...string) {
	t.b.WriteString(strings.Join(parts, ""))
	t.b.WriteByte('\n')
}

// prose writes one line of prose, folded at t.width with continuations indented by hang.
func (t *textWriter) prose(hang string, parts ...string) {
	s := strings.Join(parts, "")
	if t.width == 0 {
		t.line(s)
		return
	}
	// A device's message may hold newlines: each of its lines is folded on its own.
	for i, seg := range strings.Split(s, "\n") {
		if i > 0 {
			seg = hang + seg
		}
		for _, l := range wrapLine(seg, t.width, hang) {
			t.line(l)
		}
	}
}

func (t *textWriter) report(r *Report) {
	if hasBanner(r) {
		t.prose("  ", paint(t.p.banner, bannerText(r)))
	}
	t.prose("  ", paint(t.p.muted, runText(r)))
	t.prose("        ", paint(t.p.muted, "recipe: "+recipeText(r.Recipe))) // under the recipe's first word
	t.line()
	summary := SummaryLine(r) // at the top and the bottom
	t.prose("  ", paint(t.p.bold, summary))
	t.causes(reportCauses(r))
	t.waivers(r.Waivers)
	if t.verbose {
		for _, g := range groupResults(r) {
			t.line()
			t.device(g)
		}
	} else {
		t.objects(findingGroups(r))
		t.skips(r.Results)
	}
	if len(r.Paths) > 0 {
		t.line()
		t.paths(r.Paths)
	}
	if len(r.Transfers) > 0 {
		t.line()
		t.transfers(r.Transfers, r.Results)
	}
	t.line()
	t.prose("  ", paint(t.p.bold, summary))
}

// causes lists what explains the problems, biggest first.
func (t *textWriter) causes(cs []checks.Cause) {
	if len(cs) == 0 {
		return
	}
	t.line()
	t.line(paint(t.p.bold, causesHeading(cs)))
	for i, c := range cs {
		t.prose("      ", fmt.Sprintf("  %2d. ", i+1), paint(t.p.status(worstStatus(c)), c.Headline()))
	}
}

// worstStatus is the worst status among the results a cause explains.
func worstStatus(c checks.Cause) checks.Status {
	worst := checks.Pass
	for _, e := range c.Explains {
		for _, r := range e.Results {
			if statusRank(r.Status) < statusRank(worst) {
				worst = r.Status
			}
		}
	}
	return worst
}

// waivers lists the waiver entries that no longer apply or matched nothing.
func (t *textWriter) waivers(w *WaiverUse) {
	if w == nil || len(w.Expired)+len(w.Unused) == 0 {
		return
	}
	t.line()
	t.line(paint(t.p.bold, "waivers "+w.File))
	for _, x := range w.Expired {
		t.prose("    ", "  ", paint(t.p.warn, "expired"), fmt.Sprintf(" (line %d) ", x.Line), waiverText(x))
	}
	for _, x := range w.Unused {
		t.prose("    ", "  ", paint(t.p.muted, "unused "), fmt.Sprintf(" (line %d) ", x.Line), waiverText(x))
	}
}

// skips summarises the not-applicable checks by check and reason, most frequent first.
func (t *textWriter) skips(rs []checks.Result) {
	type key struct{ check, reason string }
	n := map[key]int{}
	var keys []key
	for _, r := range rs {
		if r.Status != checks.Skip {
			continue
		}
		k := key{r.Check, firstNonEmpty(r.Message, r.Actual)}
		if n[k] == 0 {
			keys = append(keys, k)
		}
		n[k]++
	}
	if len(keys) == 0 {
		return
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(n[b], n[a]), strings.Compare(a.check, b.check), strings.Compare(a.reason, b.reason))
	})
	total := 0
	for _, k := range keys {
		total += n[k]
	}
	t.line()
	t.prose("  ", paint(t.p.bold, fmt.Sprintf("not applicable: %d skipped, for %s (-v lists each)", total, plural(len(keys), "reason", "reasons"))))
}

func (t *textWriter) deviceNote(g deviceGroup) (kind, status string) {
	t.devErr = ""
	switch {
	case g.Fabric:
		return paint(t.p.muted, "paths and transfers"), ""
	case !g.Listed:
		return paint(t.p.muted, "(not in the device list)"), ""
	}
	kind = deviceKind(g.Device)
	t.devErr = g.Device.Error
	switch {
	case !g.Device.Reachable:
		msg := "UNREACHABLE"
		if g.Device.Error != "" {
			msg += ": " + g.Device.Error
		}
		status = paint(t.p.fail, msg)
	case g.Device.Error != "":
		status = paint(t.p.fail, "COLLECTION FAILED: "+g.Device.Error)
	}
	return kind, status
}

// joinNotes is name followed by each non-empty note, two spaces apart.
func joinNotes(name string, notes ...string) string {
	for _, n := range notes {
		if n != "" {
			name += "  " + n
		}
	}
	return name
}

// device prints one device in full (verbose): every result with its evidence.
func (t *textWriter) device(g deviceGroup) {
	kind, status := t.deviceNote(g)
	t.prose("  ", joinNotes(paint(t.p.bold, g.Device.Name), kind, status))
	t.inFabric = g.Fabric
	if len(g.Groups) == 0 {
		t.line(resultIndent, paint(t.p.muted, "no results"))
	}
	for _, grp := range g.Groups {
		switch {
		case grp.Label != "" && g.Fabric:
			t.line("  ", paint(t.p.bold, "path "+grp.Label))
		case grp.Label != "":
			t.line("  ", paint(t.p.bold, grp.Label))
		}
		for _, res := range grp.Problems {
			t.problem(*res, nil)
		}
		t.passed(grp)
	}
}

func (t *textWriter) tag(s checks.Status) string {
	return paint(t.p.status(s), fmt.Sprintf("%-6s", statusTag(s))) + " "
}

// problem prints one finding in full; also are other checks with the very same finding (an
// interface that does not exist fails every check the same way), named on the same line.
func (t *textWriter) problem(res checks.Result, also []checks.Result) {
	head := t.tag(res.Status) + paint(t.p.bold, res.Check)
	for _, a := range also {
		head += ", " + paint(t.p.bold, a.Check)
	}
	if sev := lineSeverity(res); sev != "" {
		head += "  " + sev
	}
	if res.Message != "" && res.Message != t.devErr {
		head += "  " + res.Message
	}
	t.prose(detailIndent, resultIndent, head)
	t.field("expected:", res.Expected)
	t.field("actual:  ", res.Actual)
	t.field("peer:    ", res.Peer)
	if !t.inFabric {
		// In the fabric group the path is already the heading.
		t.field("path:    ", res.Path)
	}
	if ev := res.Evidence; ev != nil {
		if ev.Command != "" {
			t.line(detailIndent, paint(t.p.label, "evidence:"), " $ ", ev.Command)
		} else if ev.Excerpt != "" {
			t.line(detailIndent, paint(t.p.label, "evidence:"))
		}
		lines, omitted := excerptLines(ev.Excerpt, textExcerptLines)
		for _, l := range lines {
			t.line(blockIndent, l)
		}
		if omitted > 0 {
			t.line(blockIndent, paint(t.p.muted, fmt.Sprintf("… %d more %s (full text in the JSON or HTML report)", omitted, pluralWord(omitted, "line", "lines"))))
		}
		if ev.Error != "" && ev.Error != t.devErr {
			t.prose(detailIndent+"           ", detailIndent, paint(t.p.label, "error:"), "    ", ev.Error)
		}
	}
	if res.Remediation != "" {
		t.line(detailIndent, paint(t.p.label, "remediation:"))
		lines, _ := excerptLines(res.Remediation, 0)
		for _, l := range lines {
			t.line(blockIndent, l)
		}
	}
}

// field prints one "label value" detail line; empty values are left out, multi-line values
// hang under the first line.
func (t *textWriter) field(label, value string) {
	if value == "" {
		return
	}
	lines, _ := excerptLines(value, 0)
	hang := detailIndent + strings.Repeat(" ", len(label)+1) // under the value
	for i, l := range lines {
		if i == 0 {
			t.prose(hang, detailIndent, paint(t.p.label, label), " ", l)
			continue
		}
		t.prose(hang, hang, l)
	}
}

// passed lists the passing checks of one group, one per line (verbose only).
func (t *textWriter) passed(grp resultGroup) {
	for _, res := range grp.Passed {
		s := t.tag(res.Status) + res.Check
		if detail := firstNonEmpty(res.Message, res.Actual); detail != "" {
			s += "  " + detail
		}
		t.line(resultIndent, s)
	}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// table writes aligned rows, each prefixed by indent. Cells are never coloured: escape
// codes would break the alignment.
func (t *textWriter) table(indent string, header []string, rows [][]string) {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, cells := range append([][]string{header}, rows...) {
		fmt.Fprintf(tw, "%s%s\n", indent, strings.Join(cells, "\t"))
	}
	// tabwriter only fails when its writer does; a strings.Builder never does.
	_ = tw.Flush()
	// tabwriter pads the last cell too; trailing blanks only make diffs noisy.
	for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		t.line(strings.TrimRight(l, " "))
	}
}

func (t *textWriter) paths(paths []Path) {
	t.line(paint(t.p.bold, "paths"))
	for _, p := range paths {
		if !t.verbose {
			c := t.p.muted
			if len(p.Paths) == 0 {
				c = t.p.fail
			}
			from, rest, _ := strings.Cut(pathLine(p), ": ")
			t.prose("    ", "  ", from, ": ", paint(c, rest))
			continue
		}
		n := plural(len(p.Paths), "equal-cost path", "equal-cost paths")
		if len(p.Paths) == 0 {
			n = paint(t.p.fail, "no path found")
		}
		t.prose("    ", "  ", p.From, " -> ", p.To, ": ", n)
		for i, hops := range p.Paths {
			t.line("    ", fmt.Sprintf("path %d", i+1))
			rows := make([][]string, len(hops))
			for j, h := range hops {
				rows[j] = []string{fmt.Sprint(j + 1), h.Device, hopPort(h.InPort), hopPort(h.OutPort)}
			}
			t.table("      ", []string{"hop", "device", "in", "out"}, rows)
		}
	}
}

func (t *textWriter) transfers(xfers []Transfer, results []checks.Result) {
	t.line(paint(t.p.bold, "transfers"))
	if !t.verbose {
		for _, x := range xfers {
			t.prose("    ", "  ", transferLine(x, results))
		}
		return
	}
	// Runs of --all-paths differ only by the member they took: its column tells them apart.
	members := slices.ContainsFunc(xfers, func(x Transfer) bool { return x.Member != "" })
	rows := make([][]string, len(xfers))
	for i, x := range xfers {
		rows[i] = []string{x.From, x.To, gidText(x.GIDIndex), bandwidthText(x), linkText(x), shareText(x), latencyText(x.LatencyUS)}
		if members {
			rows[i] = append(rows[i], memberText(x))
		}
	}
	head := []string{"from", "to", "GID index", "bandwidth", "link", "share", "latency typ / p99"}
	if members {
		head = append(head, "member (flow label)")
	}
	t.table("  ", head, rows)
	for _, x := range xfers {
		if x.Error != "" {
			t.prose("    ", "  ", x.From, " -> ", x.Label(), ": ", paint(t.p.fail, x.Error))
		}
	}
	for _, x := range xfers {
		changed, unchanged := changedCounters(x)
		if len(changed) == 0 && unchanged == 0 {
			continue
		}
		head := fmt.Sprintf("counters %s -> %s: %d changed, %d unchanged", x.From, x.Label(), len(changed), unchanged)
		t.line("  ", head)
		if len(changed) == 0 {
			continue
		}
		rows := make([][]string, len(changed))
		for i, c := range changed {
			rows[i] = []string{c.Device, c.Interface, c.Counter, deltaText(c.Delta)}
		}
		t.table("    ", []string{"device", "interface", "counter", "delta"}, rows)
	}
}

// memberText is the equal-cost member a run took and the flow label that steered it there.
func memberText(x Transfer) string {
	switch {
	case x.Member == "":
		return "-"
	case x.FlowLabel == 0:
		return x.Member
	}
	return fmt.Sprintf("%s (%d)", x.Member, x.FlowLabel)
}
