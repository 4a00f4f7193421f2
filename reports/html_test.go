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
	for _, bad := range []string{"<script", "<img", "</pre><", `" onmouseover`} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML contains unescaped %q", bad)
		}
	}
	if !strings.Contains(out, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("the message is not shown escaped")
	}
}

func TestHTMLSelfContained(t *testing.T) {
	out := string(render(t, "html", sampleReport(), Options{}))
	for _, bad := range []string{"http://", "https://", "<link", "<script", "src=", "@import"} {
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
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	r := sampleReport()
	r.Simulated = false
	if strings.Contains(string(render(t, "html", r, Options{})), `class="banner"`) {
		t.Error("real-fabric HTML carries the simulation banner")
	}
}
