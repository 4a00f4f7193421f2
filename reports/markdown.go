package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// markdownRenderer writes a report for a pull request, a ticket or a wiki: counts, a table of
// everything that is not a pass, then each finding with its evidence and remediation.
type markdownRenderer struct{}

func (markdownRenderer) Render(w io.Writer, r *Report, opts Options) error {
	if r == nil {
		return errNilReport
	}
	r = cleanReport(r)
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	p("# roceaudit report\n\n")
	if hasBanner(r) {
		p("> **%s**\n\n", mdEscape(bannerText(r)))
	}
	p("%s  \n", mdEscape(runText(r)))
	p("Recipe: %s\n\n", mdEscape(recipeText(r.Recipe)))

	t := tallyReport(r)
	p("## Summary\n\n")
	p("**%s**\n\n", mdEscape(SummaryLine(r)))
	p("| status | results |\n| --- | ---: |\n")
	for _, s := range reportStatuses(r) {
		p("| %s | %d |\n", s, t.ByStatus[s])
	}
	p("\n")

	if cs := reportCauses(r); len(cs) > 0 {
		p("## Causes\n\n**%s**, biggest first:\n\n", mdEscape(causesHeading(cs)))
		for i, c := range cs {
			p("%d. %s\n", i+1, mdEscape(c.Headline()))
		}
		p("\n")
	}
	if w := r.Waivers; w != nil {
		p("## Waivers\n\n%s: %s waived.\n\n", mdEscape(w.File), plural(w.Applied, "result", "results"))
		for _, x := range w.Expired {
			p("- expired (line %d): %s\n", x.Line, mdEscape(waiverText(x)))
		}
		for _, x := range w.Unused {
			p("- unused (line %d): %s\n", x.Line, mdEscape(waiverText(x)))
		}
		p("\n")
	}

	p("## Devices\n\n| device | platform | role | reachable | error |\n| --- | --- | --- | --- | --- |\n")
	for _, d := range r.Devices {
		reach := "yes"
		if !d.Reachable {
			reach = "**no**"
		}
		p("| %s | %s | %s | %s | %s |\n", mdCell(d.Name), mdCell(d.Platform), mdCell(string(d.Role)), reach, mdCell(d.Error))
	}
	p("\n")

	var problems, detailed []checks.Result
	for _, g := range groupResults(r) {
		for _, grp := range g.Groups {
			for _, res := range grp.Problems {
				problems = append(problems, *res)
			}
		}
	}
	p("## Findings\n\n")
	if len(problems) == 0 {
		p("Every check passed.\n\n")
	} else {
		p("| status | check | severity | device | interface | expected | actual |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, res := range problems {
			p("| %s | %s | %s | %s | %s | %s | %s |\n", statusTag(res.Status), mdCell(res.Check), mdCell(shownSeverity(res)),
				mdCell(res.Device), mdCell(firstNonEmpty(res.Interface, res.Path)), mdCell(res.Expected), mdCell(res.Actual))
			if res.Status == checks.Fail || res.Status == checks.Error || res.Status == checks.Warn {
				detailed = append(detailed, res)
			}
		}
		p("\n")
	}

	if len(detailed) > 0 {
		p("## Remediation\n\n")
		for _, res := range detailed {
			where := strings.TrimSpace(res.Device + " " + firstNonEmpty(res.Interface, res.Path))
			p("### %s %s on %s\n\n", statusTag(res.Status), mdEscape(res.Check), mdEscape(firstNonEmpty(where, "the fabric")))
			if res.Message != "" {
				p("%s\n\n", mdEscape(res.Message))
			}
			if res.Expected != "" || res.Actual != "" {
				p("- expected: %s\n- actual: %s\n", mdEscape(firstNonEmpty(res.Expected, "?")), mdEscape(firstNonEmpty(res.Actual, "?")))
				if res.Peer != "" {
					p("- peer: %s\n", mdEscape(res.Peer))
				}
				p("\n")
			}
			if ev := res.Evidence; ev != nil {
				if ev.Command != "" {
					p("Evidence: `%s`\n\n", mdCode(ev.Command))
				}
				if lines, _ := excerptLines(ev.Excerpt, 0); len(lines) > 0 {
					p("%s\n\n", mdFence(strings.Join(lines, "\n"), "text"))
				}
				if ev.Error != "" {
					p("Error: %s\n\n", mdEscape(ev.Error))
				}
			}
			if res.Remediation != "" {
				p("Remediation:\n\n%s\n\n", mdFence(strings.TrimRight(res.Remediation, "\n"), "sh"))
			} else {
				p("No remediation recorded.\n\n")
			}
		}
	}

	if len(r.Paths) > 0 {
		p("## Paths\n\n")
		for _, path := range r.Paths {
			p("### %s -> %s\n\n", mdEscape(path.From), mdEscape(path.To))
			if len(path.Paths) == 0 {
				p("No path found.\n\n")
			}
			for i, hops := range path.Paths {
				p("Path %d:\n\n| hop | device | in | out |\n| ---: | --- | --- | --- |\n", i+1)
				for j, h := range hops {
					p("| %d | %s | %s | %s |\n", j+1, mdCell(h.Device), mdCell(hopPort(h.InPort)), mdCell(hopPort(h.OutPort)))
				}
				p("\n")
			}
		}
	}

	if len(r.Transfers) > 0 {
		p("## Transfers\n\n| from | to | GID index | bandwidth | link | share | latency typ / p99 |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n")
		for _, x := range r.Transfers {
			bw := bandwidthText(x)
			if x.Error != "" {
				bw += ": " + mdCell(x.Error)
			}
			p("| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(x.From), mdCell(x.Label()), mdCell(gidText(x.GIDIndex)),
				bw, linkText(x), shareText(x), latencyText(x.LatencyUS))
		}
		p("\n")
		for _, x := range r.Transfers {
			changed, unchanged := changedCounters(x)
			if len(changed) == 0 {
				continue
			}
			p("Counters that changed, %s -> %s (%d unchanged):\n\n| device | interface | counter | delta |\n| --- | --- | --- | ---: |\n",
				mdEscape(x.From), mdEscape(x.To), unchanged)
			for _, c := range changed {
				p("| %s | %s | %s | %s |\n", mdCell(c.Device), mdCell(c.Interface), mdCell(c.Counter), deltaText(c.Delta))
			}
			p("\n")
		}
	}

	if opts.Verbose {
		writeMarkdownPasses(&b, r)
	}

	out := strings.TrimRight(b.String(), "\n") + "\n"
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write Markdown report: %w", err)
	}
	return nil
}

// writeMarkdownPasses lists every passing check when the reader asked for all of them.
func writeMarkdownPasses(b *strings.Builder, r *Report) {
	var rows []string
	for _, g := range groupResults(r) {
		for _, grp := range g.Groups {
			for _, res := range grp.Passed {
				rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |\n", mdCell(res.Check), mdCell(res.Device),
					mdCell(firstNonEmpty(res.Interface, res.Path)), mdCell(firstNonEmpty(res.Actual, res.Message))))
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Passed\n\n| check | device | interface | actual |\n| --- | --- | --- | --- |\n")
	b.WriteString(strings.Join(rows, ""))
	b.WriteString("\n")
}

// mdEscape makes text literal in Markdown: no emphasis, links, code spans, raw HTML or
// table breaks can come from device output or messages.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCell is mdEscape for a table cell, where a newline would end the row.
func mdCell(s string) string {
	if s == "" {
		return ""
	}
	return strings.ReplaceAll(mdEscape(strings.TrimSpace(s)), "\n", "<br>")
}

// mdCode is text for an inline code span (never inside a table): backticks cannot be escaped
// there, so they become quotes.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ").Replace(s)
}

// mdFence wraps text in a code fence longer than any backtick run inside it.
func mdFence(s, lang string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + s + "\n" + fence
}
