package nxos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// inferredFacts names the facts of p taken from an NX-OS default, or carrying a reason.
func inferredFacts(p *topology.SwitchPort) []string {
	var out []string
	for name, s := range map[string]struct {
		status topology.FactStatus
		reason string
	}{
		"trust": {p.Trust.Status, p.Trust.Reason}, "dscp": {p.DSCPToTC.Status, p.DSCPToTC.Reason},
		"pfc": {p.PFC.Status, p.PFC.Reason}, "watchdog": {p.PFCWatchdog.Status, p.PFCWatchdog.Reason},
		"ecn": {p.ECN.Status, p.ECN.Reason}, "scheduler": {p.Scheduler.Status, p.Scheduler.Reason},
		"dcbx": {p.DCBX.Status, p.DCBX.Reason}, "buffer": {p.Buffer.Status, p.Buffer.Reason},
	} {
		if s.status == topology.FactInferred || s.reason != "" {
			out = append(out, name)
		}
	}
	return out
}

// The healthy fixture configures every setting: nothing is assumed.
func TestInferredNoneWhenConfigured(t *testing.T) {
	for _, p := range collect(t, &fakeRunner{Scenario: "healthy"}).Ports {
		if got := inferredFacts(p); len(got) > 0 {
			t.Errorf("%s: %v marked inferred, yet the configuration states them", p.Name, got)
		}
	}
}

// Ethernet1/9 of the broken fixture has no priority-flow-control mode: the DCBX regime (a
// value SW-DCBX can pass on when the recipe asks for DCBX) is NX-OS's default auto.
func TestInferredDefaultPFCMode(t *testing.T) {
	p := collect(t, &fakeRunner{Scenario: "broken"}).Port("Ethernet1/9")
	for _, f := range []struct {
		name   string
		status topology.FactStatus
		reason string
	}{{"dcbx", p.DCBX.Status, p.DCBX.Reason}, {"pfc", p.PFC.Status, p.PFC.Reason}} {
		if f.status != topology.FactInferred || !strings.HasPrefix(f.reason, "NX-OS default priority-flow-control mode auto") {
			t.Errorf("%s is %s because %q: the default mode must be marked and named", f.name, f.status, f.reason)
		}
	}
	// The evidence a result shows leads with what was assumed.
	if ex := p.PFC.Evidence().Excerpt; !strings.HasPrefix(ex, "NX-OS default priority-flow-control mode auto") {
		t.Errorf("PFC evidence %q: the assumed default must lead", ex)
	}
}
