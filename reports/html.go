package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// htmlRenderer writes one self-contained page: inline CSS, no scripts, no external assets,
// every value escaped by html/template.
type htmlRenderer struct{}

//go:embed report.html.tmpl
var htmlTemplate string

type htmlView struct {
	Simulated            bool
	Banner               string
	Run, Recipe, Summary string
	Counts               []htmlCount
	Devices              []htmlDevice
	Paths                []htmlPath
	Transfers            []htmlTransfer
	Verbose              bool
}

type htmlCount struct {
	Status checks.Status
	N      int
}

type htmlDevice struct {
	Name, Kind, Error string
	Unreachable       bool
	Fabric            bool
	Groups            []htmlGroup
}

type htmlGroup struct {
	Label        string
	Problems     []htmlResult
	Passed       []htmlResult
	PassedChecks string
}

type htmlResult struct {
	Status                                          checks.Status
	Tag, Check, Severity, Message                   string
	Expected, Actual, Peer, Path                    string
	EvidenceCommand, EvidenceExcerpt, EvidenceError string
	Remediation                                     string
}

type htmlPath struct {
	From, To string
	Paths    [][]Hop
}

type htmlTransfer struct {
	From, To, GID, Bandwidth, Link, Share, Latency string
	Changed                                        []counterRow
	Unchanged                                      int
}

func (htmlRenderer) Render(w io.Writer, r *Report, opts Options) error {
	if r == nil {
		return errNilReport
	}
	// html/template escapes markup but not terminal control bytes, which HTML cannot show.
	r = cleanReport(r)
	tmpl, err := template.New("report").Funcs(template.FuncMap{
		"inc":   func(i int) int { return i + 1 },
		"port":  hopPort,
		"delta": deltaText,
	}).Parse(htmlTemplate)
	if err != nil {
		return fmt.Errorf("parse HTML report template: %w", err)
	}
	if err := tmpl.Execute(w, buildHTMLView(r, opts)); err != nil {
		return fmt.Errorf("write HTML report: %w", err)
	}
	return nil
}

func buildHTMLView(r *Report, opts Options) htmlView {
	t := tallyReport(r)
	v := htmlView{
		Simulated: r.Simulated,
		Banner:    bannerText(r),
		Run:       runText(r),
		Recipe:    recipeText(r.Recipe),
		Summary:   SummaryLine(r),
		Verbose:   opts.Verbose,
	}
	for _, s := range checks.Statuses {
		v.Counts = append(v.Counts, htmlCount{s, t.ByStatus[s]})
	}
	for _, g := range groupResults(r) {
		d := htmlDevice{Name: g.Device.Name, Fabric: g.Fabric, Kind: deviceKind(g.Device)}
		if g.Listed && !g.Device.Reachable {
			d.Unreachable, d.Error = true, g.Device.Error
		}
		for _, grp := range g.Groups {
			hg := htmlGroup{Label: grp.Label, PassedChecks: strings.Join(grp.passedChecks(), ", ")}
			for _, res := range grp.Problems {
				hg.Problems = append(hg.Problems, htmlResultOf(res))
			}
			for _, res := range grp.Passed {
				hg.Passed = append(hg.Passed, htmlResultOf(res))
			}
			d.Groups = append(d.Groups, hg)
		}
		v.Devices = append(v.Devices, d)
	}
	for _, p := range r.Paths {
		v.Paths = append(v.Paths, htmlPath{From: p.From, To: p.To, Paths: p.Paths})
	}
	for _, x := range r.Transfers {
		changed, unchanged := changedCounters(x)
		link := "-"
		if x.LinkGbps > 0 {
			link = gbpsText(x.LinkGbps)
		}
		v.Transfers = append(v.Transfers, htmlTransfer{
			From: x.From, To: x.To, GID: gidText(x.GIDIndex), Bandwidth: gbpsText(x.BandwidthGbps),
			Link: link, Share: shareText(x), Latency: latencyText(x.LatencyUS),
			Changed: changed, Unchanged: unchanged,
		})
	}
	return v
}

func htmlResultOf(res checks.Result) htmlResult {
	h := htmlResult{
		Status: res.Status, Tag: statusTag(res.Status), Check: res.Check, Severity: string(res.Severity),
		Message: res.Message, Expected: res.Expected, Actual: res.Actual, Peer: res.Peer, Path: res.Path,
		Remediation: strings.TrimRight(res.Remediation, "\n"),
	}
	if ev := res.Evidence; ev != nil {
		lines, _ := excerptLines(ev.Excerpt, 0)
		h.EvidenceCommand, h.EvidenceExcerpt, h.EvidenceError = ev.Command, strings.Join(lines, "\n"), ev.Error
	}
	return h
}
