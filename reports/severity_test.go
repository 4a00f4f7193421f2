package reports

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// A warning from an error-severity check reads as a warning in every human format: the check's
// severity ranks what its failure costs, and a warning is not that failure. JSON keeps the
// check's severity for scripts.
func TestWarnShowsNoFailureSeverity(t *testing.T) {
	r := &Report{Devices: []DeviceSummary{{Name: "leaf1", Reachable: true}}, Results: []checks.Result{
		{Check: "SW-HEADROOM", Status: checks.Warn, Severity: checks.SevError, Device: "leaf1", Interface: "Ethernet0",
			Message: "cable length unknown; headroom assumes 5m"},
		{Check: "SW-PFC", Status: checks.Fail, Severity: checks.Critical, Device: "leaf1", Interface: "Ethernet0",
			Message: "PFC off on priority 3"},
	}}
	for _, tc := range []struct {
		format string
		opts   Options
		want   []string
		never  string
	}{
		{"text", Options{}, []string{"WARN   SW-HEADROOM  cable length", "FAIL   SW-PFC  critical  PFC off"}, "SW-HEADROOM  error"},
		{"text", Options{Verbose: true}, []string{"WARN   SW-HEADROOM  cable length", "FAIL   SW-PFC  critical  PFC off"}, "SW-HEADROOM  error"},
		{"markdown", Options{}, []string{"| WARN | SW-HEADROOM | warning |", "| FAIL | SW-PFC | critical |"}, "| SW-HEADROOM | error |"},
		{"html", Options{}, []string{`SW-HEADROOM</a></td><td>warning</td>`, `<span class="check">SW-HEADROOM</span> <span class="sev">warning</span>`}, `<span class="sev">error</span>`},
		{"junit", Options{}, []string{"WARN SW-HEADROOM\ncable length"}, "SW-HEADROOM error"},
		{"json", Options{}, []string{`"check": "SW-HEADROOM",
      "status": "warn",
      "severity": "error"`}, ""},
	} {
		out := string(render(t, tc.format, r, tc.opts))
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %+v lacks %q:\n%s", tc.format, tc.opts, w, out)
			}
		}
		if tc.never != "" && strings.Contains(out, tc.never) {
			t.Errorf("%s %+v shows the check's failure severity on a warning (%q):\n%s", tc.format, tc.opts, tc.never, out)
		}
	}
}
