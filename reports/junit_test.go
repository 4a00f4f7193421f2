package reports

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

// Parsing types independent of the renderer's own, so a wrong tag shows up as a mismatch.
type parsedSuites struct {
	XMLName  xml.Name      `xml:"testsuites"`
	Tests    int           `xml:"tests,attr"`
	Failures int           `xml:"failures,attr"`
	Errors   int           `xml:"errors,attr"`
	Suites   []parsedSuite `xml:"testsuite"`
}

type parsedSuite struct {
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Cases    []parsedCase `xml:"testcase"`
}

type parsedCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	} `xml:"failure"`
	Error *struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	} `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
	SystemOut *string   `xml:"system-out"`
}

func parseJUnit(t *testing.T, out []byte) parsedSuites {
	t.Helper()
	var doc parsedSuites
	dec := xml.NewDecoder(bytes.NewReader(out))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, out)
	}
	return doc
}

func TestJUnitCounts(t *testing.T) {
	r := sampleReport()
	doc := parseJUnit(t, render(t, "junit", r, Options{}))
	sum := Summarize(r.Results)
	skipped := 0
	for _, s := range doc.Suites {
		skipped += s.Skipped
	}
	if doc.Tests != len(r.Results) || doc.Failures != sum[checks.Fail] || doc.Errors != sum[checks.Error] ||
		skipped != sum[checks.Skip]+sum[checks.Waived] {
		t.Errorf("testsuites counts tests=%d failures=%d errors=%d skipped (suites)=%d, want %d %d %d %d",
			doc.Tests, doc.Failures, doc.Errors, skipped,
			len(r.Results), sum[checks.Fail], sum[checks.Error], sum[checks.Skip]+sum[checks.Waived])
	}
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
		var f, e, sk int
		for _, c := range s.Cases {
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
			if c.Skipped != nil {
				sk++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
			t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d; its testcases have %d %d %d %d",
				s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
		}
	}
	if got, want := strings.Join(names, ","), "gpu01,gpu02,leaf1,leaf2,spine1,spine2,fabric"; got != want {
		t.Errorf("suites = %s, want %s (one per device, then the fabric)", got, want)
	}
}

func TestJUnitReadableCases(t *testing.T) {
	doc := parseJUnit(t, render(t, "junit", sampleReport(), Options{}))
	var pfc *parsedCase
	var warn *parsedCase
	for i := range doc.Suites {
		for j := range doc.Suites[i].Cases {
			c := &doc.Suites[i].Cases[j]
			switch {
			case c.Classname == "leaf1.Ethernet0" && c.Name == "SW-PFC Ethernet0":
				pfc = c
			case c.Name == "HOST-TOS ens1f0np0":
				warn = c
			}
		}
	}
	if pfc == nil || pfc.Failure == nil {
		t.Fatalf("no failing testcase classname=leaf1.Ethernet0 name=\"SW-PFC Ethernet0\"")
	}
	if pfc.Failure.Type != "critical" {
		t.Errorf("failure type = %q, want the severity", pfc.Failure.Type)
	}
	for _, want := range []string{"expected: PFC on priority 3 only", "actual:   PFC on priorities 3,4",
		"$ show pfc priority", "Ethernet0    3,4", "sudo pfc config priority off 4 Ethernet0"} {
		if !strings.Contains(pfc.Failure.Body, want) {
			t.Errorf("failure body lacks %q:\n%s", want, pfc.Failure.Body)
		}
	}
	if warn == nil || warn.Failure != nil || warn.Error != nil || warn.SystemOut == nil || !strings.Contains(*warn.SystemOut, "WARN") {
		t.Errorf("a warning is a passing testcase with <system-out>: %+v", warn)
	}
}

// TestJUnitHostileText: device output can hold terminal escapes, NUL and "]]>"; the
// document must still be well-formed XML.
func TestJUnitHostileText(t *testing.T) {
	body := "\x1b[31mred\x1b[0m ]]> <tag> & \x00 end"
	r := &Report{Results: []checks.Result{{
		Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical, Device: "leaf<1>", Interface: "Ethernet0",
		Message: `quote " and ' and <b>`, Evidence: &topology.Evidence{Command: "show x", Excerpt: body},
		Remediation: "fix ]]> it",
	}}}
	doc := parseJUnit(t, render(t, "junit", r, Options{}))
	c := doc.Suites[0].Cases[0]
	if c.Classname != "leaf<1>.Ethernet0" || c.Failure == nil || c.Failure.Message != `quote " and ' and <b>` {
		t.Fatalf("testcase = %+v", c)
	}
	if !strings.Contains(c.Failure.Body, "]]> <tag> & ") || !strings.Contains(c.Failure.Body, "fix ]]> it") {
		t.Errorf("body lost text: %q", c.Failure.Body)
	}
	if strings.ContainsAny(c.Failure.Body, "\x1b\x00") {
		t.Errorf("body carries characters XML 1.0 forbids: %q", c.Failure.Body)
	}
}

// The JUnit report is valid against a published schema, Jenkins' junit-10.xsd (testdata), as
// CI servers read it. xmllint comes from libxml2-utils, which CI installs.
func TestJUnitValidatesAgainstTheSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xmllint is not installed; CI must validate JUnit (.ci/run installs libxml2-utils)")
		}
		t.Skip("xmllint is not installed (Debian: libxml2-utils)")
	}
	hostile := sampleReport()
	hostile.Results = append(hostile.Results, checks.Result{Check: "SW-MTU", Status: checks.Fail, Severity: checks.Critical,
		Device: "leaf<1>", Interface: "Eth&1", Message: "]]> <x/>", Evidence: &topology.Evidence{Excerpt: "a]]>b"}})
	for name, r := range map[string]*Report{"sample": sampleReport(), "hostile": hostile, "empty": {}} {
		path := filepath.Join(t.TempDir(), name+".xml")
		if err := os.WriteFile(path, render(t, "junit", r, Options{}), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit-10.xsd", path).CombinedOutput()
		if err != nil {
			t.Errorf("%s: JUnit report does not validate against junit-10.xsd: %v\n%s", name, err, out)
		}
	}
}

// TestJUnitFollowsFailOn: a CI page must say what the exit code says. Under each --fail-on,
// the results that fail the run are <failure>, every error is <error>, and nothing else is:
// a warning under --fail-on warning fails, an error-severity failure under critical does not.
func TestJUnitFollowsFailOn(t *testing.T) {
	res := func(check string, st checks.Status, sev checks.Severity) checks.Result {
		return checks.Result{Check: check, Status: st, Severity: sev, Device: "leaf1", Interface: "Ethernet0", Message: check + " found"}
	}
	results := []checks.Result{
		res("SW-PFC", checks.Fail, checks.Critical),
		res("SW-PAUSE", checks.Fail, checks.SevError),
		res("SW-ECN-PFC-ORDER", checks.Fail, checks.Warning),
		res("SW-HEADROOM", checks.Warn, checks.Warning),
		res("SW-MTU", checks.Error, checks.Critical),
		res("SW-ECN", checks.Pass, checks.SevError),
		res("SW-BUFFER", checks.Skip, checks.Info),
	}
	for _, c := range []struct {
		failOn   checks.Severity
		failures []string
	}{
		{"", []string{"SW-PFC", "SW-PAUSE"}}, // the default is error
		{checks.Critical, []string{"SW-PFC"}},
		{checks.SevError, []string{"SW-PFC", "SW-PAUSE"}},
		{checks.Warning, []string{"SW-PFC", "SW-PAUSE", "SW-ECN-PFC-ORDER", "SW-HEADROOM"}},
	} {
		doc := parseJUnit(t, render(t, "junit", &Report{Results: results}, Options{FailOn: c.failOn}))
		var failed, errored, quiet []string
		for _, tc := range doc.Suites[0].Cases {
			check, _, _ := strings.Cut(tc.Name, " ")
			switch {
			case tc.Failure != nil:
				failed = append(failed, check)
			case tc.Error != nil:
				errored = append(errored, check)
			case tc.SystemOut != nil:
				quiet = append(quiet, check)
				if !strings.Contains(*tc.SystemOut, "not a failure: below --fail-on") {
					t.Errorf("fail-on %q: %s passes without saying why: %q", c.failOn, check, *tc.SystemOut)
				}
			}
		}
		slices.Sort(failed)
		want := slices.Sorted(slices.Values(c.failures))
		if !slices.Equal(failed, want) || doc.Failures != len(want) || doc.Suites[0].Failures != len(want) {
			t.Errorf("fail-on %q: failures %v (testsuites says %d), want %v", c.failOn, failed, doc.Failures, want)
		}
		if !slices.Equal(errored, []string{"SW-MTU"}) || doc.Errors != 1 {
			t.Errorf("fail-on %q: errors %v (testsuites says %d), want [SW-MTU]", c.failOn, errored, doc.Errors)
		}
		// Whatever is found but not a failure still shows, as output of a passing testcase.
		if len(failed)+len(quiet) != 4 {
			t.Errorf("fail-on %q: failed %v and passed with output %v: a finding went missing", c.failOn, failed, quiet)
		}
		// The exit code's own judgement, on the same results.
		if got, judged := doc.Failures > 0, checks.Judge(results, Options{FailOn: c.failOn}.failOn()).Failed; got != judged {
			t.Errorf("fail-on %q: JUnit has failures=%d but the exit code's judgement is failed=%v", c.failOn, doc.Failures, judged)
		}
	}
}
