package main

import (
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/reports"
)

// On the broken lab, gpu09 (changed host key) and gpu14 (answers garbage) are on no path
// between gpu01 and gpu11: a transfer between those reports only its own devices, and exits on
// its own verdict (XFER-PAUSE warns), as audit --path does.
func TestTransferOnTheBrokenLabReportsOnlyItsPath(t *testing.T) {
	l := startLab(t, "broken")
	code, out, errs := run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", "gpu11:ens1f0np0", "--format", "json", "--duration", "1s")
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	rep := decodeReport(t, out)
	if got, want := deviceNames(rep.Devices), []string{"gpu01", "gpu11", "leaf1"}; !slices.Equal(got, want) {
		t.Errorf("devices %v, want %v", got, want)
	}
	for _, r := range rep.Results {
		if r.Device == "gpu09" || r.Device == "gpu14" {
			t.Errorf("result of a device on no path: %+v", r)
		}
	}
	if got := keys(rep, checks.Warn, checks.Fail, checks.Error); !slices.Equal(got, []string{"warn XFER-PAUSE gpu11:ens1f0np0 gpu01:ens1f0np0->gpu11:ens1f0np0"}) {
		t.Errorf("findings %v", got)
	}

	// An endpoint that could not be collected is the transfer's own device: it is listed with
	// why, and the run is incomplete; gpu14 is still not.
	for _, tc := range []struct{ to, check string }{{"gpu09:ens1f0np0", "COLLECT-REACH"}, {"gpu14", "COLLECT-FACTS"}} {
		code, out, errs = run(t, "transfer", "-i", l.InventoryPath, "gpu01:ens1f0np0", tc.to, "--format", "json", "--duration", "1s")
		if code != exitIncomplete {
			t.Fatalf("%s: exit %d: %s", tc.to, code, errs)
		}
		rep = decodeReport(t, out)
		host := tc.to[:5]
		if got, want := deviceNames(rep.Devices), []string{"gpu01", host}; !slices.Equal(got, want) {
			t.Errorf("%s: devices %v, want %v", tc.to, got, want)
		}
		var why []string
		for _, r := range rep.Results {
			if c, _ := checks.Lookup(r.Check); c.Scope == checks.ScopeDevice {
				why = append(why, r.Check+" "+r.Device+" "+string(r.Status))
			}
		}
		if want := []string{tc.check + " " + host + " error"}; !slices.Equal(why, want) {
			t.Errorf("%s: device results %v, want %v", tc.to, why, want)
		}
	}
}

// deviceNames are the names of a report's devices, sorted.
func deviceNames(devs []reports.DeviceSummary) []string {
	var out []string
	for _, d := range devs {
		out = append(out, d.Name)
	}
	slices.Sort(out)
	return out
}
