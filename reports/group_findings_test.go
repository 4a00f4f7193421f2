package reports

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// The short report's groups, of the devices that may have findings only, are every
// device's groups less those without findings, in the same order.
func TestFindingGroupsAreTheGroupsWithFindings(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	statuses := []checks.Status{checks.Pass, checks.Pass, checks.Pass, checks.Skip, checks.Fail, checks.Error, checks.Warn}
	withFindings := func(gs []deviceGroup) []deviceGroup {
		var out []deviceGroup
		for _, g := range gs {
			if g.hasFindings() {
				out = append(out, g)
			}
		}
		return out
	}
	found := 0
	for range 200 {
		r := &Report{}
		for d := range 5 {
			r.Devices = append(r.Devices, DeviceSummary{Name: fmt.Sprint("d", d), Reachable: rng.IntN(6) > 0})
		}
		for range 40 {
			res := checks.Result{Check: fmt.Sprint("C", rng.IntN(4)), Status: statuses[rng.IntN(len(statuses))],
				Device: fmt.Sprint("d", rng.IntN(7)), Interface: fmt.Sprint("p", rng.IntN(3))}
			if rng.IntN(8) == 0 {
				res.Device, res.Interface, res.Path = "", "", "d0:p0->d1:p0"
			}
			r.Results = append(r.Results, res)
		}
		want := withFindings(groupResults(r))
		if got := withFindings(findingGroups(r)); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v\nwant %+v", got, want)
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no device had a finding")
	}
}
