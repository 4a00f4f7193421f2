package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
)

// chromiumFlags keep a headless Chromium off the network (the machine has none) and out of
// any profile but a fresh one.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run"}

// findChromium returns the browser, or skips (fails in CI, where it is installed by .ci/run).
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; CI must run the browser test (.ci/run installs it)")
	}
	t.Skip("chromium is not installed")
	return ""
}

func chromium(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir())
	cmd := exec.CommandContext(ctx, bin, append(all, args...)...)
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return string(out)
}

// artifactDir is where the screenshot is kept: $ROCEAUDIT_TEST_ARTIFACTS, else the test's
// artifact directory (go test -artifacts -outputdir DIR keeps it).
func artifactDir(t *testing.T) string {
	if d := os.Getenv("ROCEAUDIT_TEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

// The broken demo's HTML report in a real browser: every failing device is a red node of the
// fabric drawing, and the filters hide exactly the findings that do not match.
func TestHTMLReportInBrowser(t *testing.T) {
	bin := findChromium(t)
	dir := t.TempDir()
	page, js := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.json")
	if code, _, errs := run(t, "demo", "--scenario", "broken", "--quiet", "--report", "html="+page, "--report", "json="+js); code != exitFailed {
		t.Fatalf("demo exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	rep := decodeReport(t, string(data))
	failing := map[string]bool{}
	findings, leaf1Fails := 0, 0
	for _, r := range rep.Results {
		if r.Status == checks.Fail && r.Device != "" {
			failing[r.Device] = true
		}
		if r.Status != checks.Pass {
			findings++
			if r.Status == checks.Fail && r.Device == "leaf1" {
				leaf1Fails++
			}
		}
	}
	if len(failing) < 10 || leaf1Fails == 0 {
		t.Fatalf("the broken lab should fail on many devices: %v, leaf1 %d", failing, leaf1Fails)
	}

	dom := chromium(t, bin, "--dump-dom", "file://"+page)
	svg, _, ok := strings.Cut(dom[strings.Index(dom, `<h2 id="fabric-drawing">`)+1:], "</svg>")
	if !ok {
		t.Fatal("no fabric drawing in the DOM")
	}
	for dev := range failing {
		if !strings.Contains(svg, `<g class="node s-fail" data-device="`+dev+`">`) {
			t.Errorf("failing device %s is not a red node of the fabric drawing", dev)
		}
	}
	if got := attr(t, dom, "data-findings-shown"); got != findings {
		t.Errorf("unfiltered: %d findings shown, want all %d", got, findings)
	}

	filtered := chromium(t, bin, "--dump-dom", "file://"+page+"#filter?status=fail&device=leaf1")
	if shown, hidden := attr(t, filtered, "data-findings-shown"), attr(t, filtered, "data-findings-hidden"); shown != leaf1Fails || hidden != findings-leaf1Fails {
		t.Errorf("status=fail device=leaf1: %d shown, %d hidden; want %d and %d", shown, hidden, leaf1Fails, findings-leaf1Fails)
	}
	row := regexp.MustCompile(`<tr class="finding" data-status="([a-z]+)" data-device="([^"]*)" data-check="[^"]*"( hidden="")?>`)
	rows := row.FindAllStringSubmatch(filtered, -1)
	if len(rows) != findings {
		t.Fatalf("%d finding rows in the DOM, want %d", len(rows), findings)
	}
	for _, m := range rows {
		if want := m[1] == "fail" && m[2] == "leaf1"; want == (m[3] != "") {
			t.Errorf("row %s %s hidden=%v", m[1], m[2], m[3] != "")
		}
	}

	checkMatrixAndPaths(t, dom, rep)

	shot := filepath.Join(artifactDir(t), "report-broken.png")
	chromium(t, bin, "--window-size=1280,2400", "--screenshot="+shot, "file://"+page)
	if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
		t.Fatalf("no screenshot: %v", err)
	}
	t.Logf("screenshot of the broken demo's HTML report: %s", shot)
}

// section is the DOM between the heading with id and the next h2.
func section(t *testing.T, dom, id string) string {
	t.Helper()
	i := strings.Index(dom, `<h2 id="`+id+`">`)
	if i < 0 {
		t.Fatalf("no %s section in the DOM", id)
	}
	s := dom[i+1:]
	if j := strings.Index(s, "<h2 "); j >= 0 {
		s = s[:j]
	}
	return s
}

// checkMatrixAndPaths: the check x device matrix has a row per check; each route has a hop
// table; a path link with a failing LINK- result is drawn failing; and a hop is bad only for
// its own ports or for a path result naming it (gpu01 is not bad for its transfers' XFER-BW).
func checkMatrixAndPaths(t *testing.T, dom string, rep reports.Report) {
	t.Helper()
	matrix := section(t, dom, "matrix")
	if !strings.Contains(matrix, `<table class="matrix">`) {
		t.Error("no check x device matrix")
	}
	linkFails := map[string]bool{}
	blamed := map[string]bool{} // "device:port" (or "device:"), or "PAIR device:port" for a path's results
	for _, r := range rep.Results {
		if !strings.Contains(matrix, "<tr><th>"+r.Check+"</th>") {
			t.Errorf("the matrix has no row for %s", r.Check)
		}
		if r.Path == "" && r.Status == checks.Fail && strings.HasPrefix(r.Check, "LINK-") {
			linkFails[r.Device+":"+r.Interface] = true
		}
		hopCheck := strings.HasPrefix(r.Check, "XFER-RETRANS") || (strings.HasPrefix(r.Check, "PATH-") && r.Check != "PATH-RESOLVED")
		switch {
		case r.Status != checks.Fail && r.Status != checks.Error:
		case r.Path == "":
			blamed[r.Device+":"+r.Interface] = true
		case hopCheck:
			blamed[checks.EndpointPair(r.Path)+" "+r.Device+":"+r.Interface] = true
		}
	}
	paths := section(t, dom, "paths")
	routes, failing := 0, 0
	for _, p := range rep.Paths {
		routes += len(p.Paths)
		for _, hops := range p.Paths {
			for i := 0; i+1 < len(hops); i++ {
				a, b := hops[i].Device+":"+hops[i].OutPort, hops[i+1].Device+":"+hops[i+1].InPort
				if !linkFails[a] && !linkFails[b] {
					continue
				}
				failing++
				if !strings.Contains(paths, `<g class="link s-fail" data-a="`+a+`" data-b="`+b+`">`) {
					t.Errorf("path link %s - %s fails LINK- checks but is not drawn failing", a, b)
				}
			}
		}
	}
	if failing == 0 {
		t.Error("the broken demo has no path link with a failing LINK- check to draw")
	}
	if n := strings.Count(paths, `<table class="hops">`); n != routes || routes == 0 {
		t.Errorf("%d hop tables, want one per route (%d)", n, routes)
	}
	rows := regexp.MustCompile(`<tr( class="bad")?><td>\d+[^<]*</td><td><a href="#dev-[^"]*">([^<]+)</a>`).FindAllStringSubmatch(paths, -1)
	if len(rows) == 0 {
		t.Fatal("no hop rows")
	}
	i, innocent := 0, 0
	for _, p := range rep.Paths {
		for _, hops := range p.Paths {
			for _, h := range hops {
				if i >= len(rows) || rows[i][2] != h.Device {
					t.Fatalf("hop row %d is not %s: %v", i, h.Device, rows[min(i, len(rows)-1)])
				}
				pair := p.From + "->" + p.To + " "
				guilty := blamed[h.Device+":"] || blamed[h.Device+":"+h.InPort] || blamed[h.Device+":"+h.OutPort] ||
					blamed[pair+h.Device+":"+h.InPort] || blamed[pair+h.Device+":"+h.OutPort]
				if !guilty {
					innocent++
					if rows[i][1] != "" {
						t.Errorf("hop %s (%s>%s) of %s->%s is marked bad, though nothing fails on its ports", h.Device, h.InPort, h.OutPort, p.From, p.To)
					}
				}
				i++
			}
		}
	}
	if innocent == 0 {
		t.Error("no hop without a problem of its own to check")
	}
}

// attr reads a numeric attribute the page's filter script writes on <body>.
func attr(t *testing.T, dom, name string) int {
	t.Helper()
	m := regexp.MustCompile(name + `="(\d+)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the filter script did not run: no %s in the DOM", name)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
