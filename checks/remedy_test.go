package checks

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// A link result asks both ends' platforms, each with its own facts, and names each end; a
// path result asks the platform of the hop it sits on.
func TestLinkAndPathResultsAskThePlatforms(t *testing.T) {
	p := healthySwitchPort("Ethernet1/1")
	p.MTU.Value = topology.MTU{Configured: 1500, Kind: "frame", Normalized: 1500}
	snap := switchSnap(p)
	opts := Options{Remedy: platformFix}
	var link, path *Result
	for _, r := range Run(snap, opts) {
		switch {
		case r.Check == "LINK-MTU" && r.Status == Fail:
			link = &r
		case r.Check == "PATH-MTU" && r.Status == Fail:
			path = &r
		}
	}
	if link == nil || link.Status != Fail {
		t.Fatalf("LINK-MTU %+v", link)
	}
	for _, want := range []string{
		"on gpu01 ens1f0np0:\nlinux fix for LINK-MTU on ens1f0np0 (host facts of ens1f0np0)",
		"on leaf1 Ethernet1/1:\neos fix for LINK-MTU on Ethernet1/1 (switch facts of Ethernet1/1)",
	} {
		if !strings.Contains(link.Remediation, want) {
			t.Errorf("LINK-MTU remediation %q lacks %q", link.Remediation, want)
		}
	}
	// the path's bad hop is spine2:Ethernet8, an NX-OS port
	ecmp := ecmpFabric()
	swPort(ecmp, "spine2", "Ethernet8").MTU.Value = topology.MTU{Configured: 9000, Kind: "frame", Normalized: 9000}
	for _, r := range Run(ecmp, Options{Remedy: platformFix, Paths: []PathSpec{{"gpu01:ens1f0np0", "gpu02:ens1f0np0"}}}) {
		if r.Check == "PATH-MTU" && r.Status == Fail {
			path = &r
		}
	}
	if path == nil || !strings.HasSuffix(path.Remediation, "\nnxos fix for PATH-MTU on Ethernet8 (switch facts of Ethernet8)") {
		t.Errorf("PATH-MTU %+v: no platform fix for its hop", path)
	}
}

// A failure no platform has a fix for gets the check's hint; one the evaluator wrote its own
// text for keeps it.
func TestFailureWithoutPlatformFixGetsTheHint(t *testing.T) {
	p := healthySwitchPort("Ethernet1/1")
	p.Trust.Value = "pcp"
	res := swResults(switchSnap(p), Options{})
	c, _ := Lookup("SW-TRUST")
	if r := res["SW-TRUST leaf1:Ethernet1/1"]; r.Status != Fail || r.Remediation != c.Hint {
		t.Errorf("SW-TRUST %s %q, want the hint %q", r.Status, r.Remediation, c.Hint)
	}
}
