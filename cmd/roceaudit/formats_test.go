package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/reports"
)

// One audit writes every report format at once, and --quiet keeps stdout to the summary line.
func TestEveryReportFormatInOneRun(t *testing.T) {
	l := startLab(t, "broken")
	dir := t.TempDir()
	args := []string{"audit", "-i", l.InventoryPath, "--quiet"}
	files := map[string]string{}
	for _, f := range reports.Formats() {
		files[f] = filepath.Join(dir, "report."+f)
		args = append(args, "--report", f+"="+files[f])
	}
	code, out, errs := run(t, args...)
	if code != exitFailed || strings.Count(out, "\n") != 1 || !strings.Contains(out, " failed, ") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	read := func(f string) string {
		b, err := os.ReadFile(files[f])
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var suites struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(read("junit")), &suites); err != nil || len(suites.Suites) == 0 {
		t.Errorf("junit: %v", err)
	}
	if !strings.Contains(read("prometheus"), `roceaudit_check_status{check="HOST-PFC",device="gpu06",interface="ens1f0np0"`) {
		t.Error("prometheus lacks the HOST-PFC series")
	}
	for _, f := range []string{"html", "text", "json", "markdown"} {
		if !strings.Contains(read(f), "HOST-PFC") {
			t.Errorf("%s lacks HOST-PFC", f)
		}
	}
	if code, _, errs := run(t, "audit", "-i", l.InventoryPath, "--report", "pdf=x.pdf"); code != exitUsage || !strings.Contains(errs, "pdf") {
		t.Errorf("unknown report format: exit %d %s", code, errs)
	}
}

// --fail-on sets the lowest severity of a failure that makes the exit code 1.
func TestFailOnThreshold(t *testing.T) {
	l := startLab(t, "broken")
	// Leave out gpu09 (its host key is wrong) and gpu14 (it answers garbage): either would make
	// the audit incomplete.
	raw, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	inv := filepath.Join(filepath.Dir(l.InventoryPath), "readable.yaml")
	trimmed := string(raw)
	for _, name := range []string{"gpu09", "gpu14"} {
		cut := regexp.MustCompile(`(?m)^  - name: `+name+`\n(    .*\n)*`).ReplaceAllString(trimmed, "")
		if cut == trimmed {
			t.Fatalf("%s not found in the lab inventory", name)
		}
		trimmed = cut
	}
	if err := os.WriteFile(inv, []byte(trimmed), 0o600); err != nil {
		t.Fatal(err)
	}
	// Only error-severity checks fail here (HOST-MTU is "error"): critical lets them through.
	code, _, errs := run(t, "audit", "-i", inv, "--only", "HOST-MTU", "--fail-on", "critical", "--format", "json")
	if code != exitOK {
		t.Errorf("--fail-on critical with only error-severity failures: exit %d %s", code, errs)
	}
	code, _, _ = run(t, "audit", "-i", inv, "--only", "HOST-MTU", "--fail-on", "error", "--format", "json")
	if code != exitFailed {
		t.Errorf("--fail-on error: exit %d", code)
	}
	if code, _, _ := run(t, "audit", "-i", l.InventoryPath, "--fail-on", "sometimes"); code != exitUsage {
		t.Errorf("bad --fail-on: exit %d", code)
	}
}

// A report that cannot be written is refused before anything is collected; stdout comes first.
func TestUnwritableReportIsRefusedUpFront(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--report", "json=/nonexistent/dir/r.json")
	if code != exitUsage || out != "" || !strings.Contains(errs, "/nonexistent/dir") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q", code, len(out), errs)
	}
	for _, bad := range [][]string{{"--concurrency", "0"}, {"--timeout", "-1s"}} {
		if code, _, _ := run(t, append([]string{"audit", "-i", l.InventoryPath}, bad...)...); code != exitUsage {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}
