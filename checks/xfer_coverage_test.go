package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

func coveredTransfer(allPaths bool, carried ...bool) topology.Transfer {
	x := goodTransfer()
	x.Coverage = &topology.Coverage{AllPaths: allPaths, Attempts: []topology.CoverageAttempt{{FlowLabel: 1, Ran: true}, {FlowLabel: 2, Ran: true}}}
	for i, c := range carried {
		x.Coverage.Members = append(x.Coverage.Members, topology.MemberCoverage{Path: i + 1, Via: []string{"spine1", "spine2"}[i],
			Ports: []string{"leaf1:Ethernet4" + []string{"8", "9"}[i] + " out"}, Carried: c})
	}
	return x
}

func TestXferCoverageVerdicts(t *testing.T) {
	if r := xferResults(coveredTransfer(true, true, true))["XFER-COVERAGE"]; r.Status != Pass ||
		r.Actual != "2 of 2 members carried a test (2 attempts, flow labels 1,2)" || r.Message != "path 1 via spine1; path 2 via spine2" {
		t.Errorf("all covered: %+v", r)
	}
	x := coveredTransfer(true, true, false)
	x.Coverage.Bound = "8 attempts (flow labels 1-8)"
	if r := xferResults(x)["XFER-COVERAGE"]; r.Status != Fail || r.Message != "never reached: path 2 via spine2 within 8 attempts (flow labels 1-8)" ||
		!strings.Contains(r.Remediation, "L4 ports") || !strings.Contains(r.Evidence.Command, "(one run per --flow_label: 1,2)") {
		t.Errorf("polarized: %+v", r)
	}
	// The remediation names the switch whose hash chose among the members.
	x.Paths = [][]topology.Hop{
		{{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet48"}, {Device: "spine1", InPort: "Ethernet1", OutPort: "Ethernet2"}, {Device: "leaf2", InPort: "Ethernet48", OutPort: "Ethernet0"}},
		{{Device: "leaf1", InPort: "Ethernet0", OutPort: "Ethernet49"}, {Device: "spine2", InPort: "Ethernet1", OutPort: "Ethernet2"}, {Device: "leaf2", InPort: "Ethernet49", OutPort: "Ethernet0"}},
	}
	if r := xferResults(x)["XFER-COVERAGE"]; !strings.HasPrefix(r.Remediation, "make leaf1, where the members part, hash") {
		t.Errorf("the split switch is not named: %q", r.Remediation)
	}
	if d := splitDevice(x.Paths[:1]); d != "" {
		t.Errorf("one member parts nowhere, got %q", d)
	}
	if r := xferResults(coveredTransfer(false, false, true))["XFER-COVERAGE"]; r.Status != Skip ||
		r.Message != "path 2 via spine2 carried the test; untested: path 1 via spine1 (run with --all-paths)" {
		t.Errorf("single run: %+v", r)
	}
	x = coveredTransfer(true, false, false)
	x.Coverage.Error = "no traffic counter (bytes or packets) was read on the ports that tell the 2 members apart"
	if r := xferResults(x)["XFER-COVERAGE"]; r.Status != Error || !strings.Contains(r.Message, "no traffic counter") {
		t.Errorf("unread: %+v", r)
	}
	x = coveredTransfer(true, false, false)
	x.Ran, x.ErrorKind = false, "not-installed"
	if r := xferResults(x)["XFER-COVERAGE"]; r.Status != Skip {
		t.Errorf("did not run: %+v", r)
	}
	// A member's own transfer (no coverage) gives no XFER-COVERAGE result, and its other
	// results name the member.
	x = goodTransfer()
	x.Member = "path 2 via spine2"
	x.Coverage = nil
	res := xferResults(x)
	if _, ok := res["XFER-COVERAGE"]; ok {
		t.Errorf("a member transfer judged coverage: %+v", res["XFER-COVERAGE"])
	}
	if r := res["XFER-BW"]; r.Path != "gpu01:ens1f0np0->gpu05:ens1f0np0 (path 2 via spine2)" {
		t.Errorf("XFER-BW path %q", r.Path)
	}
}
