package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
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

// A slow receiver (host-variants: gpu02's second NIC cannot drain a fifth of the time) pauses
// the transfer into it: `roceaudit transfer` names it as the culprit and the ports upstream
// as victims, with the pause counters of every sampled port as evidence; the other way round
// only paces.
func TestTransferSlowReceiverIsTheCulprit(t *testing.T) {
	l := startLab(t, lab.ScenarioHostVariants)
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu06:"+linuxhost.RailNetdev(0), "gpu02:"+linuxhost.Port1, "--format", "json")
	if code == exitOK {
		t.Fatalf("exit %d (no finding); stderr %s", code, errs)
	}
	r := result(t, out, "XFER-PAUSE")
	if r.Status != checks.Warn || r.Device != "gpu02" || r.Interface != linuxhost.Port1 ||
		r.Actual != "throttled by PFC: culprit gpu02:"+linuxhost.Port1 {
		t.Fatalf("XFER-PAUSE %+v", r)
	}
	for _, want := range []string{"(paused 20.", "% of the transfer)", "victims paused upstream: gpu06:" + linuxhost.RailNetdev(0), "leaf2:swp2"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("message %q lacks %q", r.Message, want)
		}
	}
	if r.Evidence == nil || !strings.Contains(r.Evidence.Excerpt, "gpu02:"+linuxhost.Port1+" ") {
		t.Errorf("evidence %+v does not show the culprit's counters", r.Evidence)
	}
	if !strings.Contains(r.Remediation, "slow receiver") {
		t.Errorf("remediation %q does not point at the receiver", r.Remediation)
	}
	// The same pair the other way round has a receiver that keeps up: pacing only.
	_, out, errs = run(t, "transfer", "-i", l.InventoryPath, "gpu02:"+linuxhost.Port1, "gpu06:"+linuxhost.RailNetdev(0), "--format", "json")
	if r := result(t, out, "XFER-PAUSE"); r.Status != checks.Pass {
		t.Errorf("the other way round: XFER-PAUSE %+v; stderr %s", r, errs)
	}
}

// A sender named by its host alone runs on the port the transfer picks, and the report's paths
// are that port's: not the equal-cost paths of every rail of the host.
func TestTransferPathsAreThePickedPorts(t *testing.T) {
	l := startLab(t, lab.ScenarioHostVariants)
	_, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu06", "gpu02:"+linuxhost.Port1, "--format", "json")
	var rep struct {
		Paths []struct {
			From, To string
			Paths    [][]struct{ Device string }
		} `json:"paths"`
		Transfers []struct{ From, To string } `json:"transfers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v; stderr %s", err, errs)
	}
	if len(rep.Transfers) == 0 || len(rep.Paths) != 1 {
		t.Fatalf("transfers %+v, paths %+v; stderr %s", rep.Transfers, rep.Paths, errs)
	}
	x, p := rep.Transfers[0], rep.Paths[0]
	if !strings.HasPrefix(x.From, "gpu06:") || p.From != x.From || p.To != x.To {
		t.Fatalf("the transfer ran %s -> %s, the paths are %s -> %s", x.From, x.To, p.From, p.To)
	}
	if len(p.Paths) == 0 {
		t.Fatalf("no path for %s -> %s", p.From, p.To)
	}
}
