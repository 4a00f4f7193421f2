package main

import (
	"encoding/xml"
	"testing"
)

// junitTotals reads the totals of a JUnit document's root.
func junitTotals(t *testing.T, doc string) (failures, errors int) {
	t.Helper()
	var root struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, doc)
	}
	return root.Failures, root.Errors
}

// CI reads the JUnit file and the exit code: both must say the same under every --fail-on.
func TestJUnitFailsWhatTheExitCodeFails(t *testing.T) {
	args := []string{"demo", "--scenario", "host-variants", "--only", "SW-HEADROOM", "--format", "junit"}
	code, out, errs := run(t, append(args, "--fail-on", "WARNING")...) // any case, as --only
	if code != exitFailed {
		t.Fatalf("--fail-on warning: exit %d, want %d (a headroom warning); stderr %s", code, exitFailed, errs)
	}
	if f, _ := junitTotals(t, out); f == 0 {
		t.Errorf("--fail-on warning failed the run, but the JUnit has no failure:\n%s", out)
	}
	code, out, _ = run(t, append(args, "--fail-on", "error")...)
	if f, _ := junitTotals(t, out); (code == exitFailed) != (f > 0) {
		t.Errorf("--fail-on error: exit %d but %d JUnit failures", code, f)
	}

	// The broken fabric's failures of severity error do not fail a --fail-on critical run,
	// and then are not JUnit failures either.
	broken := []string{"demo", "--scenario", "broken", "--only", "HOST-MTU", "--format", "junit"}
	if code, out, _ = run(t, broken...); code != exitFailed {
		t.Fatalf("HOST-MTU on the broken fabric: exit %d, want a failure", code)
	} else if f, _ := junitTotals(t, out); f == 0 {
		t.Fatalf("HOST-MTU failed the run, but the JUnit has no failure")
	}
	code, out, _ = run(t, append(broken, "--fail-on", "critical")...)
	if f, _ := junitTotals(t, out); code == exitFailed || f != 0 {
		t.Errorf("--fail-on critical: exit %d and %d JUnit failures, want neither for error-severity failures", code, f)
	}
}
