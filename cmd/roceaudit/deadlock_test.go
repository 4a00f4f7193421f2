package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

// The deadlock scenario is healthy port by port; only its cabling is wrong: two MLAG pairs
// whose lossless peer links, with each leaf uplinked to one spine, close a ring.
func TestDemoDeadlockNamesTheCycleAndTheLinksWhoseFailureOpensAValley(t *testing.T) {
	code, out, errs := run(t, "demo", "--scenario", "deadlock", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFailed, errs)
	}
	rep := decodeReport(t, out)
	want := []string{
		// One cycle per direction round the ring leaf1 - spine1 - leaf3 - leaf4 - spine2 - leaf2.
		"fail FABRIC-DEADLOCK leaf1:Ethernet48 cycle leaf1:Ethernet48 > spine1:Ethernet1/3 > leaf3:Ethernet51 > leaf4:Ethernet1/50 > spine2:Ethernet4 > leaf2:swp53 > leaf1:Ethernet48",
		"fail FABRIC-DEADLOCK leaf1:Ethernet56 cycle leaf1:Ethernet56 > leaf2:swp52 > spine2:Ethernet12 > leaf4:Ethernet1/51 > leaf3:Ethernet49 > spine1:Ethernet1/1 > leaf1:Ethernet56",
		// Without its peer link, a pair's own traffic goes down into the other pair and up again.
		"warn FABRIC-DEADLOCK leaf1:Ethernet56 if leaf1:Ethernet56 - leaf2:swp53 fails",
		"warn FABRIC-DEADLOCK leaf3:Ethernet51 if leaf3:Ethernet51 - leaf4:Ethernet1/51 fails",
	}
	if diff := cmp.Diff(want, keys(rep, checks.Fail, checks.Error, checks.Warn)); diff != "" {
		t.Fatalf("findings differ (-want +got):\n%s", diff)
	}
	for _, r := range rep.Results {
		if r.Check != "FABRIC-DEADLOCK" || r.Status != checks.Fail {
			continue
		}
		if r.Expected == "" || r.Evidence == nil {
			t.Errorf("%s lacks expected/evidence: %+v", r.Path, r)
		}
		// Turning PFC off on the peer links breaks both cycles: the fix names every end.
		for _, port := range []string{"leaf1:Ethernet56", "leaf2:swp53", "leaf3:Ethernet51", "leaf4:Ethernet1/51"} {
			if !strings.Contains(r.Remediation, port) {
				t.Errorf("%s: remediation does not name %s:\n%s", r.Path, port, r.Remediation)
			}
		}
	}

	_, text, _ := run(t, "demo", "--scenario", "deadlock", "--no-color")
	for _, s := range []string{"FABRIC-DEADLOCK", "cycle leaf1:Ethernet48 > spine1:Ethernet1/3", "# leaf4:Ethernet1/51"} {
		if !strings.Contains(text, s) {
			t.Errorf("text report lacks %q", s)
		}
	}
}

func TestDemoHealthyFabricIsDeadlockFree(t *testing.T) {
	code, out, errs := run(t, "demo", "--scenario", "healthy", "--format", "json", "--only", "FABRIC-DEADLOCK")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []checks.Result
	for _, r := range decodeReport(t, out).Results {
		if r.Check == "FABRIC-DEADLOCK" {
			got = append(got, r)
		}
	}
	if len(got) != 1 || got[0].Status != checks.Pass || got[0].Path != "fabric" {
		t.Fatalf("got %+v", got)
	}
	// Four leaves, two spines: 6 leaf pairs x 2 spines x 2 directions; 8 uplinks, both ways.
	for _, s := range []string{"24 equal-cost paths between 6 leaf pairs", "16 lossless inter-switch queues", "failure of 8 of 8 inter-switch links"} {
		if !strings.Contains(got[0].Actual, s) {
			t.Errorf("actual %q lacks %q", got[0].Actual, s)
		}
	}
}
