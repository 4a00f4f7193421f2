package reports

import (
	"fmt"
	"io"
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
	t := &textWriter{p: newPalette(opts.Color), verbose: opts.Verbose}
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
	inFabric bool
}

func (t *textWriter) line(parts ...string) {
	t.b.WriteString(strings.Join(parts, ""))
	t.b.WriteByte('\n')
}

func (t *textWriter) report(r *Report) {
	if hasBanner(r) {
		t.line(paint(t.p.banner, bannerText(r)))
	}
	t.line(paint(t.p.muted, runText(r)))
	t.line(paint(t.p.muted, "recipe: "+recipeText(r.Recipe)))
	for _, g := range groupResults(r) {
		t.line()
		t.device(g)
	}
	if len(r.Paths) > 0 {
		t.line()
		t.paths(r.Paths)
	}
	if len(r.Transfers) > 0 {
		t.line()
		t.transfers(r.Transfers)
	}
	t.line()
	t.line(paint(t.p.bold, SummaryLine(r)))
}

func (t *textWriter) device(g deviceGroup) {
	head := paint(t.p.bold, g.Device.Name)
	switch {
	case g.Fabric:
		head += "  " + paint(t.p.muted, "paths and transfers")
	case !g.Listed:
		head += "  " + paint(t.p.muted, "(not in the device list)")
	default:
		if k := deviceKind(g.Device); k != "" {
			head += "  " + k
		}
		switch {
		case !g.Device.Reachable:
			msg := "UNREACHABLE"
			if g.Device.Error != "" {
				msg += ": " + g.Device.Error
			}
			head += "  " + paint(t.p.fail, msg)
		case g.Device.Error != "":
			head += "  " + paint(t.p.fail, "COLLECTION FAILED: "+g.Device.Error)
		}
	}
	t.line(head)
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
			if res.Status == checks.Skip && !t.verbose {
				t.skipped(res)
				continue
			}
			t.problem(res)
		}
		t.passed(grp)
	}
}

func (t *textWriter) tag(s checks.Status) string {
	return paint(t.p.status(s), fmt.Sprintf("%-6s", statusTag(s))) + " "
}

func (t *textWriter) problem(res checks.Result) {
	head := t.tag(res.Status) + paint(t.p.bold, res.Check)
	if res.Severity != "" {
		head += "  " + string(res.Severity)
	}
	if res.Message != "" {
		head += "  " + res.Message
	}
	t.line(resultIndent, head)
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
		if ev.Error != "" {
			t.line(detailIndent, paint(t.p.label, "error:"), "    ", ev.Error)
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

// skipped prints a not-applicable check on one line: the reason is all a reader needs.
func (t *textWriter) skipped(res checks.Result) {
	t.line(resultIndent, t.tag(res.Status)+res.Check+"  "+paint(t.p.muted, firstNonEmpty(res.Message, res.Actual)))
}

// field prints one "label value" detail line; empty values are left out, multi-line values
// hang under the first line.
func (t *textWriter) field(label, value string) {
	if value == "" {
		return
	}
	lines, _ := excerptLines(value, 0)
	for i, l := range lines {
		if i == 0 {
			t.line(detailIndent, paint(t.p.label, label), " ", l)
			continue
		}
		t.line(detailIndent, strings.Repeat(" ", len(label)+1), l)
	}
}

// passed prints the passing checks of one group: one line, or one per check when verbose.
func (t *textWriter) passed(grp resultGroup) {
	if len(grp.Passed) == 0 {
		return
	}
	if t.verbose {
		for _, res := range grp.Passed {
			s := t.tag(res.Status) + res.Check
			if detail := firstNonEmpty(res.Message, res.Actual); detail != "" {
				s += "  " + detail
			}
			t.line(resultIndent, s)
		}
		return
	}
	t.line(resultIndent, paint(t.p.ok, fmt.Sprintf("%-6s", "ok")), " ",
		fmt.Sprintf("%s passed (%s)", plural(len(grp.Passed), "check", "checks"), checkList(grp.passedChecks(), 80)))
}

// checkList joins check IDs up to about width characters, then says how many more passed.
func checkList(ids []string, width int) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 && b.Len()+len(id)+2 > width {
			fmt.Fprintf(&b, ", +%d more", len(ids)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(id)
	}
	return b.String()
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
		n := plural(len(p.Paths), "equal-cost path", "equal-cost paths")
		if len(p.Paths) == 0 {
			n = paint(t.p.fail, "no path found")
		}
		t.line("  ", p.From, " -> ", p.To, ": ", n)
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

func (t *textWriter) transfers(xfers []Transfer) {
	t.line(paint(t.p.bold, "transfers"))
	rows := make([][]string, len(xfers))
	for i, x := range xfers {
		link := "-"
		if x.LinkGbps > 0 {
			link = gbpsText(x.LinkGbps)
		}
		rows[i] = []string{x.From, x.To, gidText(x.GIDIndex), gbpsText(x.BandwidthGbps), link, shareText(x), latencyText(x.LatencyUS)}
	}
	t.table("  ", []string{"from", "to", "GID index", "bandwidth", "link", "share", "latency typ / p99"}, rows)
	for _, x := range xfers {
		changed, unchanged := changedCounters(x)
		if len(changed) == 0 && unchanged == 0 {
			continue
		}
		head := fmt.Sprintf("counters %s -> %s: %d changed, %d unchanged", x.From, x.To, len(changed), unchanged)
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
