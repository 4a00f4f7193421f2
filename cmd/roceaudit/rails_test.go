package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// An 8-rail generated lab (one 400G NIC per GPU, rail-optimized cabling) audits in one pass
// with a result per rail: every HOST-* check passes exactly once per rail of every host.
func TestLabUpEightRailsPassesEveryHostCheckPerRail(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	l := startLabUp(t, "--generate", "hosts=4,leaves=8,spines=2,rails=8", "--dir", dir)
	code, report, errs := run(t, "audit", "-i", filepath.Join(dir, "inventory.yaml"), "--format", "json")
	if code != exitOK {
		t.Fatalf("audit exit %d: %s\n%s", code, errs, strings.Join(keys(decodeReport(t, report), checks.Fail, checks.Error, checks.Warn), "\n"))
	}
	rep := decodeReport(t, report)
	if bad := keys(rep, checks.Fail, checks.Error, checks.Warn); len(bad) > 0 {
		t.Fatalf("8-rail lab has findings:\n%s", strings.Join(bad, "\n"))
	}
	// host -> check -> passing rails
	rails := map[string]map[string]map[string]bool{}
	for _, r := range rep.Results {
		if !strings.HasPrefix(r.Check, "HOST-") {
			continue
		}
		if r.Status != checks.Pass {
			t.Errorf("%s %s:%s is %s", r.Check, r.Device, r.Interface, r.Status)
		}
		if rails[r.Device] == nil {
			rails[r.Device] = map[string]map[string]bool{}
		}
		if rails[r.Device][r.Check] == nil {
			rails[r.Device][r.Check] = map[string]bool{}
		}
		if rails[r.Device][r.Check][r.Interface] {
			t.Errorf("%s %s:%s reported twice", r.Check, r.Device, r.Interface)
		}
		rails[r.Device][r.Check][r.Interface] = true
	}
	hostChecks := 0
	for _, c := range checks.Catalog() {
		if strings.HasPrefix(c.ID, "HOST-") {
			hostChecks++
		}
	}
	if len(rails) != 4 {
		t.Fatalf("HOST-* results for %d hosts, want 4", len(rails))
	}
	for host, byCheck := range rails {
		if len(byCheck) != hostChecks {
			t.Errorf("%s: %d HOST-* checks reported, the catalog has %d", host, len(byCheck), hostChecks)
		}
		for id, ifs := range byCheck {
			if len(ifs) != 8 {
				t.Errorf("%s %s: passed on %d rails, want 8", host, id, len(ifs))
			}
			for r := 1; r <= 8; r++ {
				if !ifs[fmt.Sprintf("ens%dnp0", r)] {
					t.Errorf("%s %s: no result on rail ens%dnp0", host, id, r)
				}
			}
		}
	}
	if code := l.stop(t); code != exitOK {
		t.Errorf("lab up exit %d after interrupt", code)
	}
}
