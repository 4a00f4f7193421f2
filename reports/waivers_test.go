package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// Without a waiver file nothing can be waived: no format counts waived results, and the
// machine formats carry no key or series for them; with one, every format does.
func TestWaivedCountOnlyWithWaiverFile(t *testing.T) {
	with := sampleReport()
	without := sampleReport()
	without.Waivers = nil
	var rs []checks.Result
	for _, r := range without.Results {
		if r.Status != checks.Waived {
			rs = append(rs, r)
		}
	}
	without.Results = rs
	summary := func(r *Report) map[string]any {
		var doc struct {
			Summary map[string]any `json:"summary"`
		}
		if err := json.Unmarshal(render(t, "json", r, Options{}), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Summary
	}
	if s := summary(without); s["waived"] != nil || s["fail"] == nil {
		t.Errorf("JSON summary without a waiver file = %v, want no waived key", s)
	}
	if s := summary(with); s["waived"] != 1.0 {
		t.Errorf("JSON summary with a waiver file = %v, want waived 1", s)
	}
	const series = `status="waived"`
	if out := string(render(t, "prometheus", without, Options{})); strings.Contains(out, series) {
		t.Errorf("Prometheus without a waiver file has a %s series", series)
	}
	if out := string(render(t, "prometheus", with, Options{})); !strings.Contains(out, `roceaudit_results{`+series+`} 1`) {
		t.Errorf("Prometheus with a waiver file lacks roceaudit_results{%s}", series)
	}
	for f, count := range map[string]string{"text": "waived", "markdown": "| waived |", "html": "waived: "} {
		if out := string(render(t, f, without, Options{})); strings.Contains(out, count) {
			t.Errorf("%s without a waiver file has %q", f, count)
		}
		if out := string(render(t, f, with, Options{})); !strings.Contains(out, count) {
			t.Errorf("%s with a waiver file lacks %q", f, count)
		}
	}
}

// An unused waiver that matched only errors says so in every people format.
func TestUnusedWaiverSaysErrorsAreNeverWaived(t *testing.T) {
	r := sampleReport()
	r.Waivers.Unused[0].MatchedErrors = 2
	const why = "matched 2 results that are errors: errors are never waived"
	for _, f := range []string{"text", "markdown", "html"} {
		if out := string(render(t, f, r, Options{})); !strings.Contains(out, why) {
			t.Errorf("%s does not say %q", f, why)
		}
	}
}
