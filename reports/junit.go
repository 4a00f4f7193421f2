package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// junitRenderer writes one <testsuite> per device and one <testcase> per result, named so a
// CI page reads "SW-PFC Ethernet8" rather than a command line (goss #962), with expected,
// actual and evidence in the body (goss #167).
type junitRenderer struct{}

type junitSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	// No skipped count here: the published JUnit schema (Jenkins junit-10.xsd) allows it on
	// each testsuite only.
	Time   string       `xml:"time,attr,omitempty"`
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

type junitText struct {
	Body string `xml:",cdata"`
}

// junitFabric names the suite of results that belong to no device (paths, transfers).
const junitFabric = "fabric"

func (junitRenderer) Render(w io.Writer, r *Report, opts Options) error {
	if r == nil {
		return errNilReport
	}
	doc := junitDocument(r, opts.failOn())
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	return nil
}

// junitDocument files as <failure> exactly the results that fail the run under failOn (a
// CI page must say what the exit code says) and every error as <error>.
func junitDocument(r *Report, failOn checks.Severity) junitSuites {
	doc := junitSuites{Name: "roceaudit"}
	if !r.Started.IsZero() && !r.Finished.IsZero() && !r.Finished.Before(r.Started) {
		doc.Time = strconv.FormatFloat(r.Finished.Sub(r.Started).Seconds(), 'f', 3, 64)
	}
	// Suites follow Report.Devices (every device shows, even one with no results), then
	// devices only results name, then the fabric suite.
	idx := map[string]int{}
	addSuite := func(name string, props []junitProperty) {
		if _, ok := idx[name]; ok {
			return
		}
		idx[name] = len(doc.Suites)
		if hasBanner(r) {
			props = append(props, junitProperty{"simulated", bannerText(r)})
		}
		s := junitSuite{Name: name}
		if len(props) > 0 {
			s.Properties = &junitProperties{props}
		}
		if !r.Started.IsZero() {
			// JUnit's timestamp has no zone, so it is always UTC.
			s.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
		}
		doc.Suites = append(doc.Suites, s)
	}
	for _, d := range r.Devices {
		props := []junitProperty{
			{"platform", d.Platform}, {"role", string(d.Role)}, {"reachable", strconv.FormatBool(d.Reachable)},
		}
		if d.Error != "" {
			props = append(props, junitProperty{"error", d.Error})
		}
		addSuite(d.Name, props)
	}
	// Each cause is a property of the suite of its device (or the fabric's), so a CI page
	// shows what to fix next to the failures it explains.
	for _, c := range reportCauses(r) {
		name := firstNonEmpty(c.Device, junitFabric)
		addSuite(name, nil)
		s := &doc.Suites[idx[name]]
		if s.Properties == nil {
			s.Properties = &junitProperties{}
		}
		s.Properties.List = append(s.Properties.List, junitProperty{"cause", c.Headline()})
	}
	for _, i := range sortedOrder(r.Results) { // not a sorted copy: ~180 MB at 10,000 devices
		res := r.Results[i]
		name := res.Device
		if name == "" {
			name = junitFabric
		}
		addSuite(name, nil)
		s := &doc.Suites[idx[name]]
		c := junitTestcase(res, failOn)
		s.Cases = append(s.Cases, c)
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
	}
	return doc
}

func junitTestcase(res checks.Result, failOn checks.Severity) junitCase {
	c := junitCase{Name: junitName(res), Classname: junitClass(res)}
	msg := firstNonEmpty(res.Message, expectedActual(res), res.Check+" "+string(res.Status))
	switch {
	case res.Status == checks.Error:
		// An undecided check is never a pass, whatever the threshold (the exit code is 3).
		c.Error = &junitProblem{Message: msg, Type: string(res.Severity), Body: xmlSafe(detailText(res))}
	case failsRun(res, failOn):
		c.Failure = &junitProblem{Message: msg, Type: shownSeverity(res), Body: xmlSafe(detailText(res))}
	case res.Status == checks.Fail || res.Status == checks.Warn:
		// Below the threshold: a passing testcase that still shows what was found.
		c.SystemOut = &junitText{Body: xmlSafe(statusTag(res.Status) + " " + detailText(res) + "not a failure: below --fail-on " + string(failOn) + "\n")}
	case res.Status == checks.Skip:
		c.Skipped = &junitSkipped{Message: res.Message}
	case res.Status == checks.Waived:
		c.Skipped = &junitSkipped{Message: strings.TrimSuffix("waived: "+res.Message, ": ")}
	}
	return c
}

// junitName is "CHECK-ID interface", plus the path when the same check repeats per path.
func junitName(res checks.Result) string {
	name := res.Check
	if res.Interface != "" {
		name += " " + res.Interface
	}
	if res.Path != "" {
		name += " (" + res.Path + ")"
	}
	return name
}

// junitClass is device[.interface]; results on no device are filed under the fabric.
func junitClass(res checks.Result) string {
	class := firstNonEmpty(res.Device, junitFabric)
	if res.Interface != "" {
		class += "." + res.Interface
	}
	return class
}

func expectedActual(res checks.Result) string {
	if res.Expected == "" && res.Actual == "" {
		return ""
	}
	return fmt.Sprintf("expected %s, actual %s", firstNonEmpty(res.Expected, "?"), firstNonEmpty(res.Actual, "?"))
}

// detailText is one result in full as plain text, evidence unabridged: the body of JUnit
// failures and the like.
func detailText(res checks.Result) string {
	var b strings.Builder
	line := func(label, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s%s\n", label, v)
		}
	}
	line("", strings.TrimSpace(res.Check+" "+lineSeverity(res)))
	line("", res.Message)
	line("expected: ", res.Expected)
	line("actual:   ", res.Actual)
	line("peer:     ", res.Peer)
	line("path:     ", res.Path)
	if ev := res.Evidence; ev != nil {
		line("evidence: $ ", ev.Command)
		if lines, _ := excerptLines(ev.Excerpt, 0); len(lines) > 0 {
			b.WriteString(strings.Join(lines, "\n"))
			b.WriteByte('\n')
		}
		line("error:    ", ev.Error)
	}
	if res.Remediation != "" {
		b.WriteString("remediation:\n")
		b.WriteString(strings.TrimRight(res.Remediation, "\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

// xmlSafe replaces what XML 1.0 cannot carry (terminal escape codes in device output, NUL)
// with U+FFFD: CDATA sections are written verbatim, unlike escaped text.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}
