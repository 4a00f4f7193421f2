package nxos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/topology"
)

func TestInferredMatchesChecks(t *testing.T) {
	if inferred != checks.Inferred {
		t.Fatalf("inferred %q, checks.Inferred %q: the checks would not see the mark", inferred, checks.Inferred)
	}
}

// inferredFacts names the facts of p marked as taken from an NX-OS default.
func inferredFacts(p *topology.SwitchPort) []string {
	var out []string
	for name, src := range map[string]topology.Evidence{
		"trust": p.Trust.Source, "dscp": p.DSCPToTC.Source, "pfc": p.PFC.Source, "watchdog": p.PFCWatchdog.Source,
		"ecn": p.ECN.Source, "scheduler": p.Scheduler.Source, "dcbx": p.DCBX.Source, "buffer": p.Buffer.Source,
	} {
		if strings.HasPrefix(src.Excerpt, inferred) {
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
		name string
		src  topology.Evidence
	}{{"dcbx", p.DCBX.Source}, {"pfc", p.PFC.Source}} {
		if !strings.HasPrefix(f.src.Excerpt, inferred+"NX-OS default priority-flow-control mode auto") {
			t.Errorf("%s evidence %q: the default mode must be marked and named first", f.name, f.src.Excerpt)
		}
	}
}
