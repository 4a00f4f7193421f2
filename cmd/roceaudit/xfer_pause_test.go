package main

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

func pauseResults(t *testing.T, scenario string) map[string]checks.Result {
	t.Helper()
	_, out, errs := run(t, "demo", "--scenario", scenario, "--format", "json")
	rep := decodeReport(t, out)
	got := map[string]checks.Result{}
	for _, r := range rep.Results {
		if r.Check == "XFER-PAUSE" {
			got[r.Path] = r
		}
	}
	if len(got) == 0 {
		t.Fatalf("no XFER-PAUSE result; stderr %s", errs)
	}
	return got
}

// The lab's receivers pace their flows: pause starts at the receiving NIC and reaches the sender
// through every lossless cable, on SONiC, Cumulus and EOS counters alike, both ends agreeing.
func TestDemoTransferPauseTreeNamesTheReceiverAsOrigin(t *testing.T) {
	got := pauseResults(t, "healthy")
	r := got["gpu01:ens1f0np0->gpu04:ens1f0np0"]
	if r.Status != checks.Pass || r.Actual != "pacing only, from gpu04:ens1f0np0" ||
		!strings.Contains(r.Message, "gpu04:ens1f0np0 sent ") ||
		!strings.Contains(r.Message, "paused upstream: gpu01:ens1f0np0, leaf1:Ethernet12") {
		t.Errorf("gpu01->gpu04: %+v", r)
	}
	// NX-OS gives 802.3x pause counters only: its ports are named as unseen, not guessed.
	r = got["gpu01:ens1f0np0->gpu05:ens1f0np0"]
	if r.Status != checks.Pass || r.Actual != "pacing only, from gpu05:ens1f0np0" ||
		!strings.Contains(r.Message, "expose no PFC pause counter") || !strings.Contains(r.Message, "spine1:Ethernet1/1") {
		t.Errorf("gpu01->gpu05: %+v", r)
	}
}

// Where the last cable drops instead of pausing (leaf1 runs no PFC toward gpu04), no pause is
// counted anywhere: the zeros are read (kept in the deltas), not assumed, so no port is blind.
func TestDemoLossyLastHopCountsNoPause(t *testing.T) {
	r := pauseResults(t, "broken")["gpu01:ens1f0np0->gpu04:ens1f0np0"]
	if r.Status != checks.Pass || r.Actual != "no PFC pause on priority 3 on 4 sampled ports" || r.Message != "" {
		t.Errorf("%+v", r)
	}
}
