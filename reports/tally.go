package reports

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// tally is what the summary of every format says, derived from the results so it can never
// disagree with them (Report.Summary is not trusted).
type tally struct {
	Devices     int
	Unreachable int
	Ports       int // distinct device + interface
	ByStatus    map[checks.Status]int
}

func tallyReport(r *Report) tally {
	scan := r.resultScan()
	t := tally{ByStatus: scan.summary()}
	devices := make(map[string]bool, len(r.Devices)+len(scan.devices))
	for _, d := range r.Devices {
		devices[d.Name] = true
		if !d.Reachable {
			t.Unreachable++
		}
	}
	for d := range scan.devices {
		devices[d] = true
	}
	t.Devices, t.Ports = len(devices), len(scan.ports)
	return t
}

// SummaryLine is the one-line outcome of a report, e.g.
// "9 devices, 17 ports: 14 failed, 1 error, 0 warnings, 186 passed, 3 skipped".
func SummaryLine(r *Report) string {
	t := tallyReport(r)
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s: ", plural(t.Devices, "device", "devices"), plural(t.Ports, "port", "ports"))
	parts := []string{
		fmt.Sprintf("%d failed", t.ByStatus[checks.Fail]),
		plural(t.ByStatus[checks.Error], "error", "errors"),
		plural(t.ByStatus[checks.Warn], "warning", "warnings"),
		fmt.Sprintf("%d passed", t.ByStatus[checks.Pass]),
		fmt.Sprintf("%d skipped", t.ByStatus[checks.Skip]),
	}
	if r.Waivers != nil {
		n := t.ByStatus[checks.Waived]
		parts = append(parts, fmt.Sprintf("%d waived", n))
	}
	b.WriteString(strings.Join(parts, ", "))
	return b.String()
}

func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, one, many))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// statusTag is how the people formats label a status.
func statusTag(s checks.Status) string {
	switch s {
	case checks.Pass:
		return "PASS"
	case checks.Fail:
		return "FAIL"
	case checks.Warn:
		return "WARN"
	case checks.Error:
		return "ERROR"
	case checks.Skip:
		return "SKIP"
	case checks.Waived:
		return "WAIVED"
	}
	return strings.ToUpper(string(s))
}

// shownSeverity is the severity a reader sees next to a result. A check's severity ranks
// what its failure costs; a warning is not that failure and counts as a warning whatever
// the check (checks.Judge), so "WARN SW-HEADROOM error" would contradict itself. JSON and
// Prometheus keep the check's severity: scripts filter on it.
func shownSeverity(res checks.Result) string {
	if res.Status == checks.Warn {
		return string(checks.Warning)
	}
	return string(res.Severity)
}

// lineSeverity is the severity word of a one-line result: none on a WARN line, whose tag
// already says it.
func lineSeverity(res checks.Result) string {
	if res.Status == checks.Warn {
		return ""
	}
	return string(res.Severity)
}
