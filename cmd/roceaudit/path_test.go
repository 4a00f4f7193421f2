package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

func TestPathCommandPrintsEveryECMPMemberAsAHopTable(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "path", "-i", l.InventoryPath, "gpu01:ens1f0np0", "10.1.0.5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"gpu01:ens1f0np0 -> gpu05:ens1f0np0: 2 equal-cost path(s)",
		"path 1 via leaf1>spine1>leaf3", "path 2 via leaf1>spine2>leaf3",
		"spine1  Ethernet1/1  Ethernet1/3  9216/9000", // the bad ECMP member shows where it drops to 9000
		"gpu05   ens1f0np0    -            9000       3    pcp",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code, out, _ := run(t, "path", "-i", l.InventoryPath, "gpu01", "gpu10"); code != exitFailed || !strings.Contains(out, "no path joins") {
		t.Errorf("uncabled host: exit %d %s", code, out)
	}
	if code, _, _ := run(t, "path", "-i", l.InventoryPath, "gpu01", "gpu10", "--format", "json"); code != exitFailed {
		t.Errorf("no path must exit 1 in JSON too: %d", code)
	}
	// What the fabric did not answer is an incomplete run (3), as gids and transfer say, not
	// bad input (2): gpu09 offers a changed host key, gpu14 answers garbage.
	if code, out, errs := run(t, "path", "-i", l.InventoryPath, "gpu01", "gpu09"); code != exitIncomplete || out != "" || !strings.Contains(errs, "not reachable") {
		t.Errorf("unreachable endpoint: exit %d %s%s", code, out, errs)
	}
	if code, out, errs := run(t, "path", "-i", l.InventoryPath, "gpu01", "gpu14", "--format", "json"); code != exitIncomplete || out != "" ||
		!strings.Contains(errs, "gpu14 could not be collected") {
		t.Errorf("endpoint without facts: exit %d %s%s", code, out, errs)
	}
	// An address no collected host has may be one of theirs.
	if code, _, errs := run(t, "path", "-i", l.InventoryPath, "gpu01", "10.9.9.9"); code != exitIncomplete ||
		!strings.Contains(errs, "no audited host port has address 10.9.9.9") || !strings.Contains(errs, "gpu14 could not be collected") {
		t.Errorf("address of no collected host: exit %d %s", code, errs)
	}
	// Two names of one port are bad input whatever else failed.
	if code, _, errs := run(t, "path", "-i", l.InventoryPath, "gpu01:ens1f0np0", "10.1.0.1"); code != exitUsage || !strings.Contains(errs, "both endpoints are gpu01") {
		t.Errorf("same port twice: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "path", "-i", l.InventoryPath, "gpu01:ens9", "gpu05"); code != exitUsage || !strings.Contains(errs, `host "gpu01" does not audit "ens9"`) {
		t.Errorf("unknown netdev: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "path", "-i", l.InventoryPath, "gpu01", "leaf1"); code != exitUsage || !strings.Contains(errs, "is a switch") {
		t.Errorf("switch endpoint: exit %d %s", code, errs)
	}
}

func TestAuditWithPathLooksOnlyAtItsHops(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu01:ens1f0np0,10.1.0.5", "--format", "json")
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	want := []string{
		"fail HOST-TRUST gpu05:ens1f0np0",
		"fail LINK-MTU leaf3:Ethernet49",
		"fail PATH-MTU spine1:Ethernet1/3 gpu01:ens1f0np0->gpu05:ens1f0np0 via leaf1>spine1>leaf3",
		"fail SW-CNP-QUEUE spine2:Ethernet0",
		"fail SW-ECN spine2:Ethernet8",
		"fail SW-ECN-PFC-ORDER leaf1:Ethernet48",
		"fail SW-MTU spine1:Ethernet1/3",
	}
	if diff := cmp.Diff(want, keys(rep, checks.Fail, checks.Error, checks.Warn)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if len(rep.Paths) != 1 || len(rep.Paths[0].Paths) != 2 || len(rep.Paths[0].Paths[0]) != 5 {
		t.Errorf("report paths: %+v", rep.Paths)
	}
	if code, _, errs := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu01"); code != exitUsage || !strings.Contains(errs, "FROM,TO") {
		t.Errorf("bad --path: exit %d %s", code, errs)
	}
}

// check on a snapshot narrows to --path like audit does, with the same results.
func TestCheckSnapshotWithPathMatchesAudit(t *testing.T) {
	l := startLab(t, "broken")
	snap := t.TempDir() + "/snap.json"
	// gpu09's host key is wrong on purpose: the snapshot is written, incomplete (exit 3).
	if code, _, errs := run(t, "collect", "-i", l.InventoryPath, "-o", snap); code != exitIncomplete {
		t.Fatalf("collect: %d %s", code, errs)
	}
	_, live, _ := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu01:ens1f0np0,10.1.0.5", "--format", "json")
	_, offline, _ := run(t, "check", snap, "--path", "gpu01:ens1f0np0,10.1.0.5", "--format", "json")
	all := []checks.Status{checks.Pass, checks.Fail, checks.Error, checks.Warn, checks.Skip}
	if diff := cmp.Diff(keys(decodeReport(t, live), all...), keys(decodeReport(t, offline), all...)); diff != "" {
		t.Errorf("(-audit +check)\n%s", diff)
	}
}

// A spine that cannot be reached still carries its paths (its neighbours see it over LLDP):
// the path audit is incomplete rather than quietly dropping that ECMP member.
func TestUnreachableSpineKeepsItsPaths(t *testing.T) {
	l := startLab(t, "healthy")
	raw, err := os.ReadFile(l.InventoryPath)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)(  - name: spine2\n(?:    .*\n)*?    port: )\d+`)
	broken := re.ReplaceAllString(string(raw), "${1}1")
	if broken == string(raw) {
		t.Fatal("spine2 not found in the inventory")
	}
	inv := filepath.Join(filepath.Dir(l.InventoryPath), "spine2-down.yaml")
	if err := os.WriteFile(inv, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "audit", "-i", inv, "--path", "gpu01:ens1f0np0,gpu05:ens1f0np0", "--format", "json")
	if code != exitIncomplete {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := strings.Join(keys(decodeReport(t, out), checks.Fail, checks.Error), "\n")
	for _, want := range []string{
		"error COLLECT-REACH spine2:",
		"error PATH-MTU gpu01:ens1f0np0 gpu01:ens1f0np0->gpu05:ens1f0np0 via leaf1>spine2>leaf3",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
