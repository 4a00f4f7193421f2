package eos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

func TestInferredMatchesChecks(t *testing.T) {
	if inferred != checks.Inferred {
		t.Fatalf("inferred %q, checks.Inferred %q: the checks would not see the mark", inferred, checks.Inferred)
	}
}

// excerpts of the facts a SW-* check can pass on.
func checkedExcerpts(p *topology.SwitchPort) map[string]string {
	return map[string]string{
		"trust": p.Trust.Source.Excerpt, "dscp": p.DSCPToTC.Source.Excerpt, "queue map": p.TCToQueue.Source.Excerpt,
		"pfc": p.PFC.Source.Excerpt, "watchdog": p.PFCWatchdog.Source.Excerpt, "ecn": p.ECN.Source.Excerpt,
		"scheduler": p.Scheduler.Source.Excerpt, "dcbx": p.DCBX.Source.Excerpt, "buffer": p.Buffer.Source.Excerpt,
	}
}

// expectInferred checks that exactly the named facts of p carry the mark, each saying what
// was assumed.
func expectInferred(t *testing.T, p *topology.SwitchPort, want map[string]string) {
	t.Helper()
	for name, ex := range checkedExcerpts(p) {
		says, marked := want[name]
		switch {
		case marked && !strings.HasPrefix(ex, inferred):
			t.Errorf("%s %s: configuration silent, yet not marked inferred: %q", p.Name, name, ex)
		case marked && !strings.Contains(firstLine(ex), says):
			t.Errorf("%s %s: first line %q does not say %q", p.Name, name, firstLine(ex), says)
		case !marked && strings.HasPrefix(ex, inferred):
			t.Errorf("%s %s: stated in the configuration, yet marked inferred: %q", p.Name, name, ex)
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// The healthy fixture configures trust, PFC, watchdog, ECN and `priority strict` on the CNP
// queue, but only `qos map traffic-class ... to dscp` (rewrite) lines: the DSCP to
// traffic-class map and the queue map are the EOS defaults.
func TestInferredHealthy(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "healthy"})
	for _, p := range sw.Ports {
		expectInferred(t, p, map[string]string{
			"dscp":      "EOS default DSCP map (no `qos map dscp` line",
			"queue map": "traffic class N uses tx-queue N",
		})
	}
}

func TestInferredBroken(t *testing.T) {
	sw := collect(t, &fakeRunner{Scenario: "broken"})
	// `qos map dscp 24 25 26 27 to traffic-class 1` configures the map: not marked, and the
	// DSCPs it leaves alone are named as default.
	p := sw.Port("Ethernet1/1")
	if ex := p.DSCPToTC.Source.Excerpt; !strings.HasPrefix(ex, "qos map dscp 24 25 26 27 to traffic-class 1") || !strings.Contains(ex, "other DSCPs: EOS default map") {
		t.Errorf("configured DSCP map evidence %q", ex)
	}
	// No scheduling line in profile ROCE; Ethernet5/1 has no QoS at all.
	expectInferred(t, p, map[string]string{"queue map": "tx-queue N", "scheduler": "EOS default: every tx-queue strict priority"})
	expectInferred(t, sw.Port("Ethernet5/1"), map[string]string{
		"queue map": "tx-queue N", "scheduler": "every tx-queue strict",
		"trust":    "EOS default trust cos for a switched port",
		"watchdog": "EOS default watchdog off",
	})
	// `no priority-flow-control pause watchdog` and `no priority` are stated.
	expectInferred(t, sw.Port("Ethernet4/1"), map[string]string{"queue map": "tx-queue N", "scheduler": "strict"})
	expectInferred(t, sw.Port("Ethernet7/1"), map[string]string{"queue map": "tx-queue N"})
	if ex := sw.Port("Ethernet4/1").PFCWatchdog.Source.Excerpt; !strings.Contains(ex, "no priority-flow-control pause watchdog") {
		t.Errorf("Ethernet4/1 watchdog evidence %q", ex)
	}
}

// A routed port without `qos trust` trusts DSCP by the (third-party) EOS default: a value the
// SW-TRUST check would pass, so it must be marked.
func TestInferredRoutedTrust(t *testing.T) {
	cfg := fixture(t, "healthy", CmdRunningConfig)
	routed := "   ip address 10.0.255.1/31\n   qos trust dscp\n"
	if !strings.Contains(cfg, routed) {
		t.Fatal("the healthy fixture changed: Ethernet31/1 no longer trusts DSCP explicitly")
	}
	cfg = strings.Replace(cfg, routed, "   ip address 10.0.255.1/31\n", 1)
	sw := collect(t, &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{CmdRunningConfig: {Stdout: cfg}}})
	p := sw.Port("Ethernet31/1")
	if p.Trust.Value != "dscp" || !p.Trust.Known {
		t.Fatalf("Ethernet31/1 trust %+v, want the routed default dscp", p.Trust)
	}
	expectInferred(t, p, map[string]string{
		"trust": "EOS default trust dscp for a routed port",
		"dscp":  "EOS default DSCP map", "queue map": "tx-queue N",
	})
}
