// Package checks is the check catalog (ID, rationale, severity, remediation) and the engine
// that runs it over a fabric snapshot. Checks are data plus one small evaluator each.
package checks

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Scope is what a check looks at.
type Scope string

// Scopes.
const (
	ScopeDevice     Scope = "device"
	ScopeHostPort   Scope = "host port"
	ScopeSwitchPort Scope = "switch port"
	ScopeLink       Scope = "link"
	ScopePath       Scope = "path"
	ScopeTransfer   Scope = "transfer"
	ScopeFabric     Scope = "fabric" // the whole fabric at once (FABRIC-DEADLOCK)
)

// Check is one catalog entry.
type Check struct {
	ID        string
	Title     string // what passing means
	Scope     Scope
	Severity  Severity
	Rationale string
	Sources   []string
	// Expected says what passing means for a recipe ("PFC on priority 3 only").
	Expected func(r recipe.Recipe) string
	// Hint is a platform-neutral remediation, for a failure no platform has a fix for; each
	// platform writes its own (collectors.Descriptor.Remediation).
	Hint string

	device     func(r recipe.Recipe, d *topology.Device) verdict
	hostPort   func(r recipe.Recipe, d *topology.Device, p *topology.HostPort) verdict
	switchPort func(r recipe.Recipe, d *topology.Device, p *topology.SwitchPort) verdict
	// withPeer, when set, revises a switch port's verdict with the facts of the device at the
	// other end of its link (SW-HEADROOM: the host NIC's own cable length).
	withPeer func(r recipe.Recipe, p *topology.SwitchPort, peer end, v verdict) verdict
	link     func(r recipe.Recipe, a, b end) verdict
	declared func(r recipe.Recipe, dl topology.DeclaredLink) verdict
	path     func(r recipe.Recipe, f *fabric, rp ResolvedPath) []pathVerdict
	transfer func(r recipe.Recipe, x topology.Transfer) verdict
	fabric   func(r recipe.Recipe, f *fabric, remedy portRemedy) []fabricVerdict

	expected *string // Expected(r) of the run's recipe, set by Run
}

// verdict is what an evaluator decides; the engine adds identity and severity.
type verdict struct {
	status Status
	// actual is built by concatenation (strconv for numbers) where a check writes one for
	// every port or link: fmt.Sprintf of the million results of 10,000 devices was ~13% of
	// the checks' CPU and 2M of their 5.1M allocations (BenchmarkRunSnapshot).
	actual      string
	message     string
	evidence    *topology.Evidence
	remediation string
	// platformFix asks the platform for a remediation although the verdict is not a failure
	// (a warning or an undecided result whose fix is a device command).
	platformFix bool
	// device and iface, when set, locate the result elsewhere than where the engine looked
	// (a transfer's loss is on the hop whose counters rose).
	device, iface string
}

// Catalog is every check roceaudit runs, in report order.
func Catalog() []*Check {
	return slices.Concat([]*Check{collectReach(), collectFacts()}, hostPortChecks(), switchChecks(), linkChecks(), pathChecks(), fabricChecks(), transferChecks())
}

// Lookup finds a check by ID (case-insensitive).
func Lookup(id string) (*Check, bool) {
	for _, c := range Catalog() {
		if strings.EqualFold(c.ID, id) {
			return c, true
		}
	}
	return nil, false
}

// ValidateIDs rejects IDs that are not in the catalog, listing the known ones.
func ValidateIDs(ids []string) error {
	var unknown []string
	for _, id := range ids {
		if strings.TrimSpace(id) == "" {
			return fmt.Errorf("an empty check ID (a stray comma?) in %q", strings.Join(ids, ","))
		}
		if _, ok := Lookup(id); !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	var known []string
	for _, c := range Catalog() {
		known = append(known, c.ID)
	}
	sort.Strings(known)
	return fmt.Errorf("unknown check ID %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

// collectFacts: a device that answered SSH but whose collection failed (timeout, every
// discovery command refused, no port to audit) has no port results; without this check such a
// device would look audited. Not in the original ID list: it keeps "missing data is never a
// pass" true for devices that connect.
func collectFacts() *Check {
	return &Check{
		ID:       "COLLECT-FACTS",
		Title:    "the device's facts were collected",
		Scope:    ScopeDevice,
		Severity: Critical,
		Rationale: "A device that logs in but cannot be read (a timeout mid-collection, an RDMA driver " +
			"not loaded, every command failing) yields no port results; the audit of it is incomplete.",
		Sources:  []string{"roceaudit collection"},
		Expected: func(recipe.Recipe) string { return "facts collected" },
		Hint:     "see the error; raise --timeout for slow devices, check the platform and sudo settings",
		device: func(_ recipe.Recipe, d *topology.Device) verdict {
			switch {
			case !d.Reachable:
				return verdict{status: Skip, actual: "not reached", message: "see COLLECT-REACH"}
			case d.Error != "":
				fix := "check the platform and sudo settings in the inventory"
				if timedOut(d.Error) {
					fix = "raise --timeout if the device is slow; " + fix
				}
				return verdict{status: Error, actual: "collection failed", message: d.Error,
					evidence:    &topology.Evidence{Command: "collect " + d.Name, Error: d.Error},
					remediation: fix}
			}
			return verdict{status: Pass, actual: "collected"}
		},
	}
}

func collectReach() *Check {
	return &Check{
		ID:       "COLLECT-REACH",
		Title:    "SSH connect, authentication and host key check succeed",
		Scope:    ScopeDevice,
		Severity: Critical,
		Rationale: "A device that cannot be reached cannot be audited; every other check on it " +
			"would be guesswork, so the audit is reported incomplete rather than passed.",
		Sources:  []string{"RFC 4251 (SSH); OpenSSH known_hosts(5)"},
		Expected: func(recipe.Recipe) string { return "reachable over SSH with a known host key" },
		Hint: "check address/port, credentials and the host key: ssh -p PORT USER@ADDRESS; " +
			"a changed key must be verified out of band before updating known_hosts",
		device: func(_ recipe.Recipe, d *topology.Device) verdict {
			if d.Reachable {
				return verdict{status: Pass, actual: "reachable"}
			}
			return verdict{
				status:      Error,
				actual:      "unreachable",
				message:     d.Error,
				evidence:    &topology.Evidence{Command: "ssh " + d.Address, Error: d.Error},
				remediation: fmt.Sprintf("verify the device answers SSH at %s and that its host key is the one in known_hosts", d.Address),
			}
		},
	}
}

// timedOut is whether a device's error is a deadline (only then can more time help: a
// device that floods or refuses fails the same way with any --timeout).
func timedOut(deviceError string) bool {
	e := strings.ToLower(deviceError)
	return strings.Contains(e, "deadline exceeded") || strings.Contains(e, "timeout") || strings.Contains(e, "timed out")
}
