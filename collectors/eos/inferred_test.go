package eos

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// status and reason of the facts a SW-* check can pass on.
type marking struct {
	status topology.FactStatus
	reason string
}

func checkedFacts(p *topology.SwitchPort) map[string]marking {
	return map[string]marking{
		"trust": {p.Trust.Status, p.Trust.Reason}, "dscp": {p.DSCPToTC.Status, p.DSCPToTC.Reason},
		"queue map": {p.TCToQueue.Status, p.TCToQueue.Reason}, "pfc": {p.PFC.Status, p.PFC.Reason},
		"watchdog": {p.PFCWatchdog.Status, p.PFCWatchdog.Reason}, "ecn": {p.ECN.Status, p.ECN.Reason},
		"scheduler": {p.Scheduler.Status, p.Scheduler.Reason}, "dcbx": {p.DCBX.Status, p.DCBX.Reason},
		"buffer": {p.Buffer.Status, p.Buffer.Reason},
	}
}

// expectInferred checks that exactly the named facts of p are inferred, each reason saying
// what was assumed, and that every other one was read.
func expectInferred(t *testing.T, p *topology.SwitchPort, want map[string]string) {
	t.Helper()
	for name, f := range checkedFacts(p) {
		says, marked := want[name]
		switch {
		case marked && f.status != topology.FactInferred:
			t.Errorf("%s %s: configuration silent, yet %s, not inferred", p.Name, name, f.status)
		case marked && (strings.Contains(f.reason, "\n") || !strings.Contains(f.reason, says)):
			t.Errorf("%s %s: reason %q is not one line saying %q", p.Name, name, f.reason, says)
		case !marked && (f.status != topology.FactKnown || f.reason != ""):
			t.Errorf("%s %s: stated in the configuration, yet %s (reason %q)", p.Name, name, f.status, f.reason)
		}
	}
}

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
	if p.Trust.Value != "dscp" || !p.Trust.Usable() {
		t.Fatalf("Ethernet31/1 trust %+v, want the routed default dscp", p.Trust)
	}
	expectInferred(t, p, map[string]string{
		"trust": "EOS default trust dscp for a routed port",
		"dscp":  "EOS default DSCP map", "queue map": "tx-queue N",
	})
}
