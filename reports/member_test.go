package reports

import (
	"testing"

	"github.com/roceaudit/roceaudit/checks"
)

// Under --all-paths a pair has one transfer per member: each line names its member and only
// the lossy hops of its own XFER-RETRANS.
func TestTransferLinePerMember(t *testing.T) {
	res := []checks.Result{{Check: "XFER-RETRANS", Status: checks.Fail, Device: "spine1", Interface: "Ethernet1/3",
		Path: "gpu01:p0->gpu05:p0 (path 1 via spine1)"}}
	one := Transfer{From: "gpu01:p0", To: "gpu05:p0", Member: "path 1 via spine1", BandwidthGbps: 20, LinkGbps: 100}
	two := Transfer{From: "gpu01:p0", To: "gpu05:p0", Member: "path 2 via spine2", BandwidthGbps: 96, LinkGbps: 100}
	if got := transferLine(one, res); got != "gpu01:p0 -> gpu05:p0 (path 1 via spine1): 20 of 100 Gb/s, lossy hop spine1 Ethernet1/3" {
		t.Errorf("member 1: %q", got)
	}
	if got := transferLine(two, res); got != "gpu01:p0 -> gpu05:p0 (path 2 via spine2): 96 of 100 Gb/s" {
		t.Errorf("member 2: %q", got)
	}
	if s := (routeScope{pair: "gpu01:p0->gpu05:p0", via: "leaf1>spine1>leaf3"}); !s.owns(res[0].Path) {
		t.Error("a member's result is not owned by its pair's route")
	}
}
