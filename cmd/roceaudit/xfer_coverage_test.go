package main

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// --all-paths steps the flow label until both spines carried a test: XFER-COVERAGE passes,
// and XFER-BW and XFER-RETRANS give one result per member, named by it. The same lab then
// serves the audit form over Cumulus and NX-OS leaves, and a member broken on purpose (one
// lab for all three: each start costs seconds under the race detector).
func TestTransferAllPathsCoversEveryMember(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu05:ens1f0np0", "--all-paths", "--duration", "1s", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	rep := decodeReport(t, out)
	if len(rep.Transfers) != 2 {
		t.Fatalf("want one transfer per member, got %d", len(rep.Transfers))
	}
	cov := rep.Transfers[0].Coverage
	if cov == nil || !cov.AllPaths || len(cov.Members) != 2 || !cov.Members[0].Carried || !cov.Members[1].Carried {
		t.Fatalf("coverage %+v", cov)
	}
	members := map[string]bool{}
	for _, x := range rep.Transfers {
		if x.FlowLabel < 1 || x.Member == "" {
			t.Errorf("transfer %+v", x)
		}
		members[x.Member] = true
	}
	if !members["path 1 via spine1"] || !members["path 2 via spine2"] {
		t.Errorf("members %v", members)
	}
	if r := result(t, out, "XFER-COVERAGE"); r.Status != checks.Pass || !strings.Contains(r.Actual, "2 of 2 members") {
		t.Errorf("XFER-COVERAGE %+v", r)
	}
	for _, id := range []string{"XFER-BW", "XFER-RETRANS"} {
		var paths []string
		for _, r := range rep.Results {
			if r.Check == id && r.Status == checks.Pass {
				paths = append(paths, r.Path)
			}
		}
		if len(paths) != 2 || !strings.Contains(strings.Join(paths, " "), "(path 1 via spine1)") || !strings.Contains(strings.Join(paths, " "), "(path 2 via spine2)") {
			t.Errorf("%s per member: %v", id, paths)
		}
	}
	auditAllPathsOverCumulusAndNXOS(t, l)
	allPathsNamesTheBrokenMember(t, l)
	if running := l.RunningPerftest(); len(running) != 0 {
		t.Errorf("left running: %v", running)
	}
}

// leaf1 hashes on addresses only: every flow label of gpu01 -> gpu05 takes one spine, and
// after 4 x 2 attempts XFER-COVERAGE fails naming the member never reached.
func TestTransferAllPathsPolarizedHashFails(t *testing.T) {
	l := startLab(t, "ecmp-polarized")
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu05:ens1f0np0", "--all-paths", "--duration", "1s", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	r := result(t, out, "XFER-COVERAGE")
	if r.Status != checks.Fail || !strings.Contains(r.Actual, "1 of 2 members carried a test (8 attempts") ||
		!strings.Contains(r.Message, "never reached: path ") || !strings.Contains(r.Message, "within 8 attempts") {
		t.Errorf("XFER-COVERAGE %+v", r)
	}
	if rep := decodeReport(t, out); len(rep.Transfers) != 1 || len(rep.Transfers[0].Coverage.Attempts) != 8 {
		t.Errorf("transfers %+v", rep.Transfers)
	}
}

// audit --transfer --all-paths over Cumulus (leaf2) and NX-OS (leaf4) leaves: their ports'
// byte counters tell the two spines apart too. --all-paths alone is a usage error.
func auditAllPathsOverCumulusAndNXOS(t *testing.T, l *lab.Lab) {
	t.Helper()
	if code, _, errs := run(t, "audit", "-i", l.InventoryPath, "--all-paths"); code != exitUsage || !strings.Contains(errs, "needs --transfer") {
		t.Errorf("--all-paths without --transfer: exit %d %s", code, errs)
	}
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu03:ens1f1np1,gpu07:ens1f1np1", "--transfer", "--all-paths",
		"--duration", "1s", "--only", "XFER-COVERAGE,XFER-BW", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if r := result(t, out, "XFER-COVERAGE"); r.Status != checks.Pass || !strings.Contains(r.Message, "via spine1") || !strings.Contains(r.Message, "via spine2") {
		t.Errorf("XFER-COVERAGE %+v", r)
	}
	rep := decodeReport(t, out)
	if len(rep.Transfers) != 2 || rep.Transfers[0].Coverage == nil {
		t.Fatalf("transfers %+v", rep.Transfers)
	}
	for _, m := range rep.Transfers[0].Coverage.Members {
		if !strings.HasPrefix(m.Ports[0], "leaf2:swp5") {
			t.Errorf("member %+v: the first port that tells it apart is not a leaf2 uplink", m)
		}
	}
}

// With spine1's port toward leaf3 at MTU 1500, gpu01 -> gpu05's 4 KB RoCE frames die there:
// --all-paths still reaches both members (the dropped frames count on the ports before
// spine1's egress), and XFER-RUN names the member that fails while the other one ran. It
// changes the lab: run it last.
func allPathsNamesTheBrokenMember(t *testing.T, l *lab.Lab) {
	t.Helper()
	l.Switch("spine1").Update(func(s *switchstate.Switch) { s.Port("Ethernet1/3").MTU = 1500 })
	_, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu05:ens1f0np0", "--all-paths", "--duration", "1s", "--format", "json")
	if r := result(t, out, "XFER-COVERAGE"); r.Status != checks.Pass {
		t.Fatalf("XFER-COVERAGE %+v (%s)", r, errs)
	}
	runs := map[string]checks.Status{}
	for _, r := range decodeReport(t, out).Results {
		if r.Check == "XFER-RUN" {
			runs[r.Path] = r.Status
		}
	}
	if runs["gpu01:ens1f0np0->gpu05:ens1f0np0 (path 1 via spine1)"] != checks.Fail || runs["gpu01:ens1f0np0->gpu05:ens1f0np0 (path 2 via spine2)"] != checks.Pass {
		t.Errorf("XFER-RUN per member: %v", runs)
	}
}
