package checks

import "github.com/roceaudit/roceaudit/topology"

// Status is the outcome of one check on one object.
type Status string

// Statuses, as reports and scripts spell them.
const (
	Pass   Status = "pass"
	Fail   Status = "fail"
	Warn   Status = "warn"
	Error  Status = "error" // could not decide: missing data is never a pass
	Skip   Status = "skip"  // not applicable
	Waived Status = "waived"
)

// Statuses lists every status in report order.
var Statuses = []Status{Fail, Error, Warn, Pass, Skip, Waived}

// Severity ranks what a failure costs.
type Severity string

// Severities, most severe first.
const (
	Critical Severity = "critical"
	SevError Severity = "error"
	Warning  Severity = "warning"
	Info     Severity = "info"
)

// Rank orders severities: higher is worse.
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 4
	case SevError:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Result is one check's verdict on one object (one entry of the JSON report's results).
type Result struct {
	Check       string             `json:"check"`
	Status      Status             `json:"status"`
	Severity    Severity           `json:"severity"`
	Device      string             `json:"device,omitempty"`
	Interface   string             `json:"interface,omitempty"`
	Peer        string             `json:"peer,omitempty"`
	Path        string             `json:"path,omitempty"`
	Expected    string             `json:"expected,omitempty"`
	Actual      string             `json:"actual,omitempty"`
	Message     string             `json:"message,omitempty"`
	Evidence    *topology.Evidence `json:"evidence,omitempty"`
	Remediation string             `json:"remediation,omitempty"`
}
