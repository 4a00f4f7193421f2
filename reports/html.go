package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// htmlRenderer writes one self-contained page that works offline: inline CSS, an inline
// script for the filters, inline SVG drawings, no external URL of any kind; every value is
// escaped by html/template.
type htmlRenderer struct{}

//go:embed report.html.tmpl
var htmlTemplate string

type htmlView struct {
	Simulated            bool
	Banner               string
	Run, Recipe, Summary string
	Counts               []htmlCount
	CausesHeading        string
	Causes               []htmlCause
	Waivers              *WaiverUse
	Fabric               drawing
	Matrix               htmlMatrix
	Findings             []htmlResult
	FilterDevices        []string
	FilterChecks         []string
	FilterStatuses       []checks.Status
	Devices              []htmlDevice
	Paths                []htmlPath
	Transfers            []htmlTransfer
	Verbose              bool
}

type htmlCount struct {
	Status checks.Status
	N      int
}

type htmlCause struct {
	Headline, Anchor string
	Status           checks.Status
}

type htmlDevice struct {
	Name, Kind, Error, Anchor string
	Unreachable               bool
	Fabric                    bool
	Groups                    []htmlGroup
}

type htmlGroup struct {
	Label, Anchor string
	Problems      []htmlResult
	Passed        []htmlResult
	PassedChecks  string
}

type htmlResult struct {
	Status                                          checks.Status
	Tag, Check, Severity, Message                   string
	Device, Where                                   string
	Expected, Actual, Peer, Path                    string
	EvidenceCommand, EvidenceExcerpt, EvidenceError string
	Remediation, Anchor                             string
}

type htmlPath struct {
	From, To string
	Routes   []htmlRoute
}

type htmlRoute struct {
	Drawing drawing
	Hops    []htmlHop
}

type htmlHop struct {
	N                       int
	Device, In, Out, Anchor string
	MTU, PFC, Trust, DCBX   string
	Bad                     bool
	Status                  checks.Status
}

type htmlTransfer struct {
	From, To, GID, Bandwidth, Link, Share, Latency, Error string
	Changed                                               []counterRow
	Unchanged                                             int
}

type htmlMatrix struct {
	Devices []string
	Rows    []htmlMatrixRow
}

type htmlMatrixRow struct {
	Check string
	Cells []htmlCell
}

type htmlCell struct {
	Status        checks.Status
	N             int
	Anchor, Title string
}

func (htmlRenderer) Render(w io.Writer, r *Report, opts Options) error {
	if r == nil {
		return errNilReport
	}
	// html/template escapes markup but not terminal control bytes, which HTML cannot show.
	r = cleanReport(r)
	tmpl, err := template.New("report").Funcs(template.FuncMap{
		"delta": deltaText,
		"half":  func(i int) int { return i / 2 },
		"add":   func(a, b int) int { return a + b },
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
		Waivers:   r.Waivers,
		Fabric:    drawFabric(r),
		Matrix:    buildMatrix(r),
	}
	for _, s := range reportStatuses(r) {
		v.Counts = append(v.Counts, htmlCount{s, t.ByStatus[s]})
		if t.ByStatus[s] > 0 {
			v.FilterStatuses = append(v.FilterStatuses, s)
		}
	}
	cs := reportCauses(r)
	v.CausesHeading = causesHeading(cs)
	for _, c := range cs {
		v.Causes = append(v.Causes, htmlCause{Headline: c.Headline(), Anchor: causeAnchor(c), Status: worstStatus(c)})
	}
	for _, g := range groupResults(r) {
		d := htmlDevice{Name: g.Device.Name, Fabric: g.Fabric, Kind: deviceKind(g.Device), Anchor: anchorID("dev", g.Device.Name)}
		if g.Fabric {
			d.Anchor = "fabric"
		}
		if g.Listed && !g.Device.Reachable {
			d.Unreachable, d.Error = true, g.Device.Error
		}
		for _, grp := range g.Groups {
			hg := htmlGroup{Label: grp.Label, PassedChecks: strings.Join(grp.passedChecks(), ", ")}
			if grp.Label != "" && !g.Fabric {
				hg.Anchor = anchorID("port", g.Device.Name+"-"+grp.Label)
			}
			for _, res := range grp.Problems {
				hr := htmlResultOf(*res)
				hg.Problems = append(hg.Problems, hr)
				v.Findings = append(v.Findings, hr)
			}
			for _, res := range grp.Passed {
				hg.Passed = append(hg.Passed, htmlResultOf(*res))
			}
			d.Groups = append(d.Groups, hg)
		}
		v.Devices = append(v.Devices, d)
	}
	filterDevices, filterChecks := map[string]bool{}, map[string]bool{}
	for _, f := range v.Findings {
		if !filterDevices[f.Device] {
			filterDevices[f.Device] = true
			v.FilterDevices = append(v.FilterDevices, f.Device)
		}
		if !filterChecks[f.Check] {
			filterChecks[f.Check] = true
			v.FilterChecks = append(v.FilterChecks, f.Check)
		}
	}
	slices.SortFunc(v.FilterDevices, natCompare)
	slices.Sort(v.FilterChecks)
	for _, p := range r.Paths {
		v.Paths = append(v.Paths, buildHTMLPath(r, p))
	}
	for _, x := range r.Transfers {
		changed, unchanged := changedCounters(x)
		v.Transfers = append(v.Transfers, htmlTransfer{
			From: x.From, To: x.Label(), GID: gidText(x.GIDIndex), Bandwidth: bandwidthText(x),
			Link: linkText(x), Share: shareText(x), Latency: latencyText(x.LatencyUS), Error: x.Error,
			Changed: changed, Unchanged: unchanged,
		})
	}
	landAnchors(&v)
	return v
}

// landAnchors points every drawing and hop link at a section the page has: a port has one
// only when a result names it, and a device on a path or a link may be in no device list.
func landAnchors(v *htmlView) {
	ids := map[string]bool{}
	for _, d := range v.Devices {
		ids[d.Anchor] = true
		for _, g := range d.Groups {
			if g.Anchor != "" {
				ids[g.Anchor] = true
			}
		}
	}
	land := func(fallback string, anchors ...string) string {
		for _, a := range anchors {
			if ids[a] {
				return a
			}
		}
		return fallback
	}
	fix := func(d *drawing) {
		for i := range d.Nodes {
			d.Nodes[i].Anchor = land("devices", d.Nodes[i].Anchor)
		}
		for i := range d.Links {
			l := &d.Links[i]
			l.Anchor = land("devices", append([]string{l.Anchor}, l.alts...)...)
		}
	}
	fix(&v.Fabric)
	for i := range v.Paths {
		for j := range v.Paths[i].Routes {
			rt := &v.Paths[i].Routes[j]
			fix(&rt.Drawing)
			for k := range rt.Hops {
				rt.Hops[k].Anchor = land("devices", rt.Hops[k].Anchor)
			}
		}
	}
}

func htmlResultOf(res checks.Result) htmlResult {
	h := htmlResult{
		Status: res.Status, Tag: statusTag(res.Status), Check: res.Check, Severity: shownSeverity(res),
		Device: firstNonEmpty(res.Device, "fabric"), Where: firstNonEmpty(res.Interface, res.Path),
		Message: res.Message, Expected: res.Expected, Actual: res.Actual, Peer: res.Peer, Path: res.Path,
		Remediation: strings.TrimRight(res.Remediation, "\n"),
	}
	h.Anchor = resultAnchor(res.Device, res.Interface)
	if ev := res.Evidence; ev != nil {
		lines, _ := excerptLines(ev.Excerpt, 0)
		h.EvidenceCommand, h.EvidenceExcerpt, h.EvidenceError = ev.Command, strings.Join(lines, "\n"), ev.Error
	}
	return h
}

// resultAnchor is the id of the section that shows a result: its port's, its device's, or,
// for a result on no device, the fabric group's (which exists because that result does).
func resultAnchor(device, iface string) string {
	switch {
	case device == "":
		return "fabric"
	case iface == "":
		return anchorID("dev", device)
	}
	return anchorID("port", device+"-"+iface)
}

// causeAnchor is where a cause's link lands: its port or device, or, for a path or transfer
// cause (no device), the section of a result it explains, the one it was found by first: the
// fabric group exists only when some result has no device, and path results usually have one.
func causeAnchor(c checks.Cause) string {
	if c.Device != "" {
		return resultAnchor(c.Device, c.Interface)
	}
	var first *checks.ResultRef
	for _, e := range c.Explains {
		for i := range e.Results {
			ref := &e.Results[i]
			if ref.Check == c.Check {
				return resultAnchor(ref.Device, ref.Interface)
			}
			if first == nil {
				first = ref
			}
		}
	}
	if first != nil {
		return resultAnchor(first.Device, first.Interface)
	}
	return "findings" // a cause explains at least one result; this is only a safe landing
}

// buildMatrix is the check x device overview: the worst status of each check on each device.
func buildMatrix(r *Report) htmlMatrix {
	var m htmlMatrix
	type cell struct {
		worst checks.Status
		n     int
	}
	cells := map[[2]string]*cell{}
	var ids []string
	// A cell is new the first time its check and device meet: its device or check may be new
	// too (a slices.Contains of every device per result was quadratic at 10,000 devices).
	devices, checkIDs := map[string]bool{}, map[string]bool{}
	for _, res := range r.Results {
		dev := firstNonEmpty(res.Device, "fabric")
		k := [2]string{res.Check, dev}
		c := cells[k]
		if c == nil {
			if !devices[dev] {
				devices[dev] = true
				m.Devices = append(m.Devices, dev)
			}
			if !checkIDs[res.Check] {
				checkIDs[res.Check] = true
				ids = append(ids, res.Check)
			}
			c = &cell{worst: res.Status}
			cells[k] = c
		}
		c.n++
		if statusRank(res.Status) < statusRank(c.worst) {
			c.worst = res.Status
		}
	}
	slices.SortFunc(m.Devices, natCompare)
	slices.Sort(ids)
	for _, id := range ids {
		row := htmlMatrixRow{Check: id}
		for _, dev := range m.Devices {
			c := cells[[2]string{id, dev}]
			if c == nil {
				row.Cells = append(row.Cells, htmlCell{})
				continue
			}
			anchor := anchorID("dev", dev)
			if dev == "fabric" {
				anchor = "fabric"
			}
			row.Cells = append(row.Cells, htmlCell{Status: c.worst, N: c.n, Anchor: anchor,
				Title: fmt.Sprintf("%s on %s: %s (%d results)", id, dev, c.worst, c.n)})
		}
		m.Rows = append(m.Rows, row)
	}
	return m
}

// buildHTMLPath is one endpoint pair: per equal-cost route a drawing and a hop table with
// each hop's settings; a hop or link that a failing or undecided result judges is marked bad
// (see routeScope for which results judge it).
func buildHTMLPath(r *Report, p Path) htmlPath {
	facts := factIndex(r.Ports)
	out := htmlPath{From: p.From, To: p.To}
	for _, hops := range p.Paths {
		scope := newRouteScope(p, hops)
		var route htmlRoute
		for j, h := range hops {
			in, okIn := facts[portKey{h.Device, h.InPort}]
			o, okOut := facts[portKey{h.Device, h.OutPort}]
			pair := func(a, b string) string {
				switch {
				case okIn && okOut && a != b:
					return a + " / " + b
				case okIn:
					return a
				case okOut:
					return b
				}
				return "-"
			}
			st := scope.hopStatus(r.Results, h.Device, h.InPort, h.OutPort)
			hop := htmlHop{N: j + 1, Device: h.Device, In: hopPort(h.InPort), Out: hopPort(h.OutPort), Status: st,
				Anchor: anchorID("dev", h.Device), Bad: st == checks.Fail || st == checks.Error,
				MTU: pair(in.MTU, o.MTU), PFC: pair(in.PFC, o.PFC), Trust: pair(in.Trust, o.Trust), DCBX: pair(in.DCBX, o.DCBX)}
			route.Hops = append(route.Hops, hop)
		}
		route.Drawing = drawRoute(route.Hops)
		for i := range route.Drawing.Links {
			a, b := hops[i], hops[i+1]
			route.Drawing.Links[i].Status = string(scope.linkStatus(r.Results, portKey{a.Device, a.OutPort}, portKey{b.Device, b.InPort}))
		}
		out.Routes = append(out.Routes, route)
	}
	return out
}

// drawRoute lays one route's hops out left to right.
func drawRoute(hops []htmlHop) drawing {
	d := drawing{Width: 2*drawMargin + max(1, len(hops))*nodeGap, Height: 2*drawMargin + nodeH}
	for i, h := range hops {
		x := drawMargin + i*nodeGap + (nodeGap-nodeW)/2
		d.Nodes = append(d.Nodes, drawNode{Name: h.Device, Status: string(h.Status), Anchor: h.Anchor, X: x, Y: drawMargin})
		if i > 0 {
			prev := d.Nodes[i-1]
			d.Links = append(d.Links, drawLink{A: hops[i-1].Device + ":" + hops[i-1].Out, B: h.Device + ":" + h.In,
				Anchor: h.Anchor, X1: prev.X + nodeW, Y1: drawMargin + nodeH/2, X2: x, Y2: drawMargin + nodeH/2,
				alts: []string{hops[i-1].Anchor}})
		}
	}
	return d
}
