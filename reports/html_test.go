package reports

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

func TestHTMLEscapes(t *testing.T) {
	r := sampleReport()
	r.Results = append(r.Results, checks.Result{
		Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical, Device: "leaf1", Interface: "Ethernet4",
		Message:     `<script>alert("x")</script>`,
		Expected:    `9216" onmouseover="x`,
		Evidence:    &topology.Evidence{Command: "show <b>", Excerpt: "</pre><script>y()</script>"},
		Remediation: "<img src=x onerror=z()>",
	})
	out := string(render(t, "html", r, Options{}))
	for _, bad := range []string{"<img", "</pre><", `" onmouseover`} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML contains unescaped %q", bad)
		}
	}
	// The page's own filter script is the only one.
	if n := strings.Count(out, "<script"); n != 1 || !strings.Contains(out, "<script>") || !strings.Contains(out, "function apply()") {
		t.Errorf("HTML has %d scripts, want only its own filter script", n)
	}
	if !strings.Contains(out, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("the message is not shown escaped")
	}
}

func TestHTMLSelfContained(t *testing.T) {
	out := string(render(t, "html", sampleReport(), Options{}))
	// No URL of any kind: the page must work offline and leak nothing when opened. Inline
	// SVG in HTML needs no xmlns, and the one script is inline.
	for _, bad := range []string{"http://", "https://", "//cdn", "<link", "<script src", "src=", "@import", "url(", "<iframe", "<object"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML refers to something outside the page: %q", bad)
		}
	}
	for _, want := range []string{
		`<div class="banner">` + SimulationBanner,
		"<th>expected</th><td>PFC on priority 3 only</td>",
		"<th>actual</th><td>PFC on priorities 3,4</td>",
		"<pre>Pause parameters for ens1f0np0:",
		"unreachable: ssh: handshake failed",
		"<style>",
		`<nav class="toc">`, `<a href="#causes">Causes</a>`, `<h2 id="causes">Causes</h2>`,
		`<a href="#port-leaf1-Ethernet0">leaf1 Ethernet0 PFC: PFC on priorities 3,4 -&gt; SW-PFC</a>`,
		`<g class="node s-fail" data-device="leaf1">`, `<g class="node s-error" data-device="spine2">`,
		`<tr class="finding" data-status="fail" data-device="leaf1" data-check="SW-PFC">`,
		`<select id="f-status">`, `<table class="matrix">`, `<h4 id="port-leaf1-Ethernet0">`,
		"<th>MTU</th><th>PFC</th><th>trust</th><th>DCBX</th>",
		`<tr class="bad"><td>2 &#10007;</td><td><a href="#dev-leaf1">leaf1</a></td><td>Ethernet0</td><td>Ethernet8</td><td>9216</td><td>3,4 / 3</td><td>dscp</td><td>static</td>`,
		"<td>did not run<br><span class=\"down-msg\">perftest: perftest is not installed",
		`<span class="count s-waived">waived: 1</span>`, `<h2 id="waivers">Waivers</h2>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(out, " 0 Gb/s") {
		t.Error("a transfer that did not run shows 0 Gb/s")
	}
	r := sampleReport()
	r.Simulated = false
	r.Waivers = nil
	out = string(render(t, "html", r, Options{}))
	if strings.Contains(out, `class="banner"`) {
		t.Error("real-fabric HTML carries the simulation banner")
	}
	if strings.Contains(out, "waived:") || strings.Contains(out, `id="waivers"`) {
		t.Error("HTML shows waivers though no waiver file is in use")
	}
}

// A hop is bad for its own ports' checks and for what its route's results say of it; not for
// another path's results, nor for the transfer's (XFER-BW names the sender, not a fault of
// it). A path link takes the colour of its LINK- results and of the route's results naming it.
func TestHTMLPathBlamesTheRightHop(t *testing.T) {
	const toGPU05, toGPU10 = "gpu01:e0->gpu05:e0", "gpu01:e0->gpu10"
	r := &Report{
		Paths: []Path{{From: "gpu01:e0", To: "gpu05:e0", Paths: [][]Hop{
			{{Device: "gpu01", OutPort: "e0"}, {Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet48"}, {Device: "spine1", InPort: "Ethernet1", OutPort: "Ethernet3"}, {Device: "gpu05", InPort: "e0"}},
			{{Device: "gpu01", OutPort: "e0"}, {Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet52"}, {Device: "spine2", InPort: "Ethernet0", OutPort: "Ethernet8"}, {Device: "gpu05", InPort: "e0"}},
		}}},
		Results: []checks.Result{
			{Check: "PATH-RESOLVED", Status: checks.Fail, Device: "gpu01", Interface: "e0", Path: toGPU10},
			{Check: "XFER-RUN", Status: checks.Fail, Device: "gpu01", Interface: "e0", Path: toGPU10 + ":e0"},
			{Check: "XFER-BW", Status: checks.Fail, Device: "gpu01", Interface: "e0", Path: toGPU05},
			{Check: "HOST-PFC", Status: checks.Pass, Device: "gpu01", Interface: "e0"},
			{Check: "XFER-RETRANS", Status: checks.Fail, Device: "gpu05", Interface: "e0", Path: toGPU05},
			{Check: "PATH-MTU", Status: checks.Fail, Device: "spine1", Interface: "Ethernet3", Path: toGPU05 + " via leaf1>spine1"},
			{Check: "LINK-PFC", Status: checks.Error, Device: "leaf1", Interface: "Ethernet52", Peer: "spine2:Ethernet0"},
			{Check: "SW-MTU", Status: checks.Fail, Device: "spine2", Interface: "Ethernet9"}, // not on the route
		},
	}
	p := buildHTMLPath(r, r.Paths[0])
	type got struct {
		Hops  []string
		Links []string
	}
	var routes []got
	for _, route := range p.Routes {
		var g got
		for _, h := range route.Hops {
			s := h.Device + "=" + string(h.Status)
			if h.Bad {
				s += " bad"
			}
			g.Hops = append(g.Hops, s)
		}
		for _, l := range route.Drawing.Links {
			g.Links = append(g.Links, l.A+"-"+l.B+"="+l.Status)
		}
		routes = append(routes, g)
	}
	want := []got{
		{Hops: []string{"gpu01=pass", "leaf1=", "spine1=fail bad", "gpu05=fail bad"},
			Links: []string{"gpu01:e0-leaf1:Ethernet0=", "leaf1:Ethernet48-spine1:Ethernet1=", "spine1:Ethernet3-gpu05:e0=fail"}},
		{Hops: []string{"gpu01=pass", "leaf1=error bad", "spine2=", "gpu05=fail bad"},
			Links: []string{"gpu01:e0-leaf1:Ethernet0=", "leaf1:Ethernet52-spine2:Ethernet0=error", "spine2:Ethernet8-gpu05:e0=fail"}},
	}
	if diff := cmp.Diff(want, routes); diff != "" {
		t.Errorf("routes (-want +got):\n%s", diff)
	}
	// The drawing carries the link's status as its class, for the stylesheet to colour.
	out := string(render(t, "html", r, Options{}))
	if !strings.Contains(out, `<g class="link s-error" data-a="leaf1:Ethernet52" data-b="spine2:Ethernet0">`) {
		t.Error("the failing path link has no status class in the drawing")
	}
}

// TestHTMLLinksLand: every in-page link (causes, findings, the matrix, drawings, hop tables)
// lands on an element with that id. Path and transfer causes have no device and used to
// point at a fabric section that exists only when some result has no device.
func TestHTMLLinksLand(t *testing.T) {
	onDevices := sampleReport() // every result on a device: no fabric section
	onDevices.Results = slices.DeleteFunc(onDevices.Results, func(r checks.Result) bool { return r.Device == "" })
	pathOnly := &Report{ // a path cause whose results are on no device at all
		Paths: []Path{{From: "gpu01:e0", To: "gpu09", Paths: [][]Hop{}}},
		Results: []checks.Result{{Check: "PATH-RESOLVED", Status: checks.Fail, Severity: checks.Critical,
			Path: "gpu01:e0->gpu09", Actual: "no path"}},
	}
	for name, r := range map[string]*Report{"sample": sampleReport(), "on devices": onDevices, "path only": pathOnly} {
		out := string(render(t, "html", r, Options{Verbose: true}))
		if len(reportCauses(r)) == 0 || !strings.Contains(out, `<li class="c-`) {
			t.Fatalf("%s: no cause links to check", name)
		}
		ids := map[string]bool{}
		for _, m := range htmlIDs.FindAllStringSubmatch(out, -1) {
			ids[m[1]] = true
		}
		hrefs := htmlHrefs.FindAllStringSubmatch(out, -1)
		if len(hrefs) == 0 {
			t.Fatalf("%s: no in-page links", name)
		}
		for _, m := range hrefs {
			if !ids[m[1]] {
				t.Errorf(`%s: href="#%s" has no element with id="%s"`, name, m[1], m[1])
			}
		}
	}
	// A path cause lands where its finding and fix are shown.
	out := string(render(t, "html", onDevices, Options{}))
	if want := `<a href="#port-gpu02-ens1f0np0">gpu02:ens1f0np0-&gt;gpu01:ens1f0np0 transfer`; !strings.Contains(out, want) {
		t.Errorf("the transfer cause does not link to the port of its XFER-RUN result: want %s", want)
	}
}

var (
	htmlIDs   = regexp.MustCompile(`\sid="([^"]*)"`)
	htmlHrefs = regexp.MustCompile(`href="#([^"]*)"`)
)
