package reports

import (
	"regexp"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// unescapedPipe finds a table-cell separator: a pipe not preceded by a backslash.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])\|`)

func TestMarkdownTablesSurvivePipes(t *testing.T) {
	r := sampleReport()
	r.Results = append(r.Results, checks.Result{
		Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical, Device: "spine1", Interface: "Ethernet3",
		Expected: "9214 | 9216", Actual: "1500 |\n| injected | row",
		Message:     "see `show interfaces | json`",
		Remediation: "configure\n```\ninterface Ethernet3\n   mtu 9214\n```",
	})
	out := string(render(t, "markdown", r, Options{}))
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| FAIL | SW-MTU |") && strings.Contains(l, "Ethernet3") {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no findings row for SW-MTU on spine1 Ethernet3:\n%s", out)
	}
	// 7 columns = 8 separators; an escaped pipe is not one.
	if n := len(unescapedPipe.FindAllString(row, -1)); n != 8 {
		t.Errorf("row has %d cell separators, want 8: %s", n, row)
	}
	if !strings.Contains(row, `9214 \| 9216`) || !strings.Contains(row, `1500 \|<br>\| injected \| row`) {
		t.Errorf("pipes or newlines not escaped: %s", row)
	}
	// The remediation holds a ``` fence: the block around it must use a longer one.
	if !strings.Contains(out, "````sh\nconfigure\n```\ninterface Ethernet3\n   mtu 9214\n```\n````") {
		t.Errorf("remediation fence not longer than the backticks inside it:\n%s", out)
	}
}

func TestMarkdownSections(t *testing.T) {
	out := string(render(t, "markdown", sampleReport(), Options{}))
	for _, want := range []string{
		"> **" + SimulationBanner,
		"| fail | 4 |",
		"| FAIL | SW-PFC | critical | leaf1 | Ethernet0 | PFC on priority 3 only | PFC on priorities 3,4 |",
		"| ERROR | COLLECT-REACH | critical | spine2 |",
		"### FAIL SW-PFC on leaf1 Ethernet0",
		"```sh\nsudo pfc config priority off 4 Ethernet0\nsudo config save -y\n```",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(out, "## Passed") {
		t.Error("passes listed without Verbose")
	}
	if !strings.Contains(string(render(t, "markdown", sampleReport(), Options{Verbose: true})), "## Passed") {
		t.Error("Verbose Markdown does not list passes")
	}
}
