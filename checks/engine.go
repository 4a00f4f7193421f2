package checks

import (
	"strings"

	"github.com/roceaudit/roceaudit/checks/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Options narrow which checks run (--only, --skip). IDs are validated by the caller.
type Options struct {
	Only []string
	Skip []string
}

func (o Options) wants(id string) bool {
	has := func(list []string) bool {
		for _, x := range list {
			if strings.EqualFold(x, id) {
				return true
			}
		}
		return false
	}
	if len(o.Only) > 0 && !has(o.Only) {
		return false
	}
	return !has(o.Skip)
}

// Run evaluates the catalog over a snapshot: device checks on every device, host-port checks
// on every audited port of every reachable host. It reads nothing but the snapshot.
func Run(snap *topology.Snapshot, opts Options) []Result {
	var out []Result
	cat := Catalog()
	for _, d := range snap.Devices {
		for _, c := range cat {
			if c.device != nil && opts.wants(c.ID) {
				out = append(out, c.result(snap.Recipe, c.device(snap.Recipe, d), d.Name, ""))
			}
		}
		if !d.Reachable || d.Host == nil {
			continue
		}
		for _, p := range d.Host.Ports {
			for _, c := range cat {
				if c.hostPort != nil && opts.wants(c.ID) {
					out = append(out, c.result(snap.Recipe, c.hostPort(snap.Recipe, d, p), d.Name, p.Netdev))
				}
			}
		}
	}
	return out
}

func (c *Check) result(r recipe.Recipe, v verdict, device, iface string) Result {
	res := Result{
		Check:     c.ID,
		Status:    v.status,
		Severity:  c.Severity,
		Device:    device,
		Interface: iface,
		Expected:  c.Expected(r),
		Actual:    v.actual,
		Message:   v.message,
	}
	if v.status != Pass && v.status != Skip {
		res.Evidence = v.evidence
		res.Remediation = v.remediation
	}
	return res
}

// Outcome is what a set of results means for the exit code.
type Outcome struct {
	Failed     bool // a failure at or above the threshold
	Incomplete bool // some check could not decide
}

// Judge applies --fail-on: a fail counts when its severity reaches the threshold; with the
// threshold at warning, warn results count too.
func Judge(results []Result, failOn Severity) Outcome {
	var o Outcome
	for _, r := range results {
		switch r.Status {
		case Fail:
			if r.Severity.Rank() >= failOn.Rank() {
				o.Failed = true
			}
		case Warn:
			if failOn == Warning {
				o.Failed = true
			}
		case Error:
			o.Incomplete = true
		}
	}
	return o
}

// ParseSeverity reads a --fail-on value.
func ParseSeverity(s string) (Severity, bool) {
	switch Severity(s) {
	case Critical, SevError, Warning:
		return Severity(s), true
	}
	return "", false
}
