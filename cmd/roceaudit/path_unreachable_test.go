package main

import (
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// A path to a host that could not be reached does not resolve; the report still lists that
// host with the reason (its COLLECT-REACH error), not only the path's error on the near end.
func TestAuditPathToAnUnreachableHostSaysWhy(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu01:ens1f0np0,gpu09", "--format", "json")
	if code != exitIncomplete && code != exitFailed {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	reach := false
	for _, r := range rep.Results {
		if r.Check == "COLLECT-REACH" && r.Device == "gpu09" && r.Status == checks.Error {
			reach = true
		}
	}
	listed := false
	for _, d := range rep.Devices {
		listed = listed || d.Name == "gpu09"
	}
	if !reach || !listed {
		t.Errorf("gpu09 listed %v, its COLLECT-REACH error reported %v; devices %v", listed, reach, rep.Devices)
	}
}

// An audit of a path's transfer alone still lists the switches the transfer crossed, though
// they have no result of their own.
func TestAuditTransferOnlyListsTheSwitchesCrossed(t *testing.T) {
	l := startLab(t, "healthy")
	code, out, errs := run(t, "audit", "-i", l.InventoryPath, "--path", "gpu01:ens1f0np0,gpu05:ens1f0np0",
		"--transfer", "--duration", "1s", "--only", "XFER-BW", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	names := map[string]bool{}
	for _, d := range rep.Devices {
		names[d.Name] = true
	}
	if len(rep.Transfers) == 0 || len(rep.Transfers[0].Hops) == 0 {
		t.Fatalf("no transfer hops: %+v", rep.Transfers)
	}
	for _, h := range rep.Transfers[0].Hops {
		if !names[h.Device] {
			t.Errorf("the transfer crossed %s, which the report does not list (devices %v)", h.Device, names)
		}
	}
}
