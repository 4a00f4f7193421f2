package reports

import (
	"strings"
	"testing"

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
