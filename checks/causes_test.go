package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func res(check string, st Status, sev Severity, dev, iface, peer, path string) Result {
	return Result{Check: check, Status: st, Severity: sev, Device: dev, Interface: iface, Peer: peer, Path: path, Actual: check + " actual"}
}

// summary is a cause as "where fact: check=count,...", enough to compare groupings.
func summary(cs []Cause) []string {
	var out []string
	for _, c := range cs {
		s := c.Where() + " " + c.Fact + ":"
		for _, e := range c.Explains {
			s += " " + e.Check + "=" + string(rune('0'+e.Count))
		}
		out = append(out, s)
	}
	return out
}

// A lossy hop: the port's PFC, its link, the transfer counters that name it and the
// bandwidth of both transfers through it are one cause, listed first.
func TestFindCausesLossyHop(t *testing.T) {
	const p1, p2 = "gpu01:e0->gpu04:e0", "gpu02:e0->gpu04:e0"
	rs := []Result{
		res("XFER-BW", Fail, SevError, "gpu01", "e0", "", p1),
		res("XFER-BW", Fail, SevError, "gpu02", "e0", "", p2),
		res("XFER-RETRANS", Fail, SevError, "leaf1", "Ethernet12", "", p1),
		res("SW-PFC", Fail, Critical, "leaf1", "Ethernet12", "gpu04:e0", ""),
		res("LINK-PFC", Fail, Critical, "gpu04", "e0", "leaf1:Ethernet12", ""),
		res("SW-MTU", Pass, Critical, "leaf1", "Ethernet12", "", ""),
		res("SW-PFC-WATCHDOG", Skip, Warning, "leaf1", "Ethernet12", "", ""),
		res("HOST-TRUST", Fail, Critical, "gpu05", "e1", "", ""),
	}
	// p2 has no counter that names a hop: its bandwidth follows the port cause on its path.
	got := FindCauses(rs, []PathPorts{{Path: p2, Ports: [][2]string{{"gpu02", "e0"}, {"leaf1", "Ethernet12"}, {"gpu04", "e0"}}}})
	want := []string{
		"leaf1 Ethernet12 PFC: XFER-BW=2 SW-PFC=1 LINK-PFC=1 XFER-RETRANS=1",
		"gpu05 e1 trust: HOST-TRUST=1",
	}
	if diff := cmp.Diff(want, summary(got)); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
	if got[0].Problem != "SW-PFC actual" || got[0].Severity != Critical || got[0].Total() != 5 {
		t.Errorf("first cause = %+v", got[0])
	}
	if h := got[0].Headline(); h != "leaf1 Ethernet12 PFC: SW-PFC actual -> XFER-BW on 2 paths, SW-PFC, LINK-PFC, XFER-RETRANS" {
		t.Errorf("headline = %q", h)
	}
	if n := ExplainedCount(got); n != 6 {
		t.Errorf("explained %d results, want the 6 failures", n)
	}
}

// One unreachable device is one cause, however many results it leaves undecided.
func TestFindCausesUnreachableDevice(t *testing.T) {
	rs := []Result{
		res("COLLECT-REACH", Error, Critical, "gpu09", "", "", ""),
		res("HOST-MTU", Error, Critical, "gpu09", "e0", "", ""),
		res("LINK-MTU", Error, Critical, "gpu09", "e0", "leaf1:Ethernet9", ""),
		res("COLLECT-FACTS", Skip, Critical, "gpu09", "", "", ""),
	}
	want := []string{"gpu09 reachability: COLLECT-REACH=1 HOST-MTU=1 LINK-MTU=1"}
	if diff := cmp.Diff(want, summary(FindCauses(rs, nil))); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

// Two faults on one port stay two causes; an error on a failing port joins the failure; a
// link whose ends are both fine is its own cause; a transfer that never ran groups its results.
func TestFindCausesSeparateFacts(t *testing.T) {
	const p = "gpu01:e0->gpu10"
	rs := []Result{
		res("SW-MTU", Fail, Critical, "leaf2", "swp2", "", ""),
		res("SW-DCBX", Fail, Warning, "leaf2", "swp2", "", ""),
		res("SW-PFC", Error, Critical, "leaf2", "swp2", "", ""),
		res("LINK-MTU", Fail, Critical, "leaf3", "Ethernet49", "spine1:Ethernet1/3", ""),
		res("XFER-RUN", Fail, Critical, "gpu01", "e0", "", p),
		res("XFER-RETRANS", Fail, SevError, "gpu01", "e0", "", p),
		res("HOST-TOS", Warn, Warning, "gpu08", "e0", "", ""),
	}
	want := []string{
		"leaf2 swp2 MTU: SW-MTU=1 SW-PFC=1",
		p + " transfer: XFER-RUN=1 XFER-RETRANS=1",
		"leaf3 Ethernet49 MTU: LINK-MTU=1",
		"leaf2 swp2 DCBX: SW-DCBX=1",
		"gpu08 e0 ToS: HOST-TOS=1",
	}
	if diff := cmp.Diff(want, summary(FindCauses(rs, nil))); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

func TestFindCausesNothingToExplain(t *testing.T) {
	rs := []Result{res("SW-MTU", Pass, Critical, "leaf1", "Ethernet0", "", ""), res("SW-BUFFER", Skip, Info, "leaf1", "Ethernet0", "", ""),
		res("SW-DCBX", Waived, Warning, "leaf1", "Ethernet0", "", "")}
	if got := FindCauses(rs, nil); len(got) != 0 {
		t.Errorf("causes of passes, skips and waivers: %+v", got)
	}
}

// A transfer that could not start is not blamed on a port of its path.
func TestFindCausesTransferThatDidNotRun(t *testing.T) {
	const p = "gpu03:e1->gpu07:e1"
	rs := []Result{
		res("HOST-GID-INDEX", Fail, Critical, "gpu03", "e1", "", ""),
		res("XFER-RUN", Error, Critical, "gpu03", "e1", "", p),
		res("XFER-BW", Skip, SevError, "gpu03", "e1", "", p),
	}
	got := FindCauses(rs, []PathPorts{{Path: p, Ports: [][2]string{{"gpu03", "e1"}}}})
	want := []string{"gpu03 e1 GID: HOST-GID-INDEX=1", p + " transfer: XFER-RUN=1"}
	if diff := cmp.Diff(want, summary(got)); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

// A transfer between endpoints no path joins is the missing path's cause, though the path
// result names the bare host and the transfer its netdev.
func TestFindCausesTransferWithNoPath(t *testing.T) {
	for _, tc := range []struct {
		name    string
		netdevs []string // the far host's audited netdevs
	}{
		{"one netdev resolves the bare host", []string{"e0"}},
		{"two netdevs match by device", []string{"e0", "e1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := []Result{
				res("PATH-RESOLVED", Fail, Critical, "gpu01", "e0", "", "gpu01:e0->gpu10"),
				res("XFER-RETRANS", Fail, Critical, "gpu01", "e0", "", "gpu01:e0->gpu10:e0"),
				res("XFER-RUN", Fail, Critical, "gpu01", "e0", "", "gpu01:e0->gpu10:e0"),
				res("HOST-TRUST", Fail, Critical, "gpu05", "e1", "", ""),
			}
			for _, nd := range tc.netdevs {
				rs = append(rs, res("HOST-MTU", Pass, Critical, "gpu10", nd, "", ""))
			}
			want := []string{"gpu01:e0->gpu10 path: PATH-RESOLVED=1 XFER-RETRANS=1 XFER-RUN=1", "gpu05 e1 trust: HOST-TRUST=1"}
			if diff := cmp.Diff(want, summary(FindCauses(rs, nil))); diff != "" {
				t.Errorf("causes (-want +got):\n%s", diff)
			}
		})
	}
	// Another host's transfer is not the missing path's.
	rs := []Result{
		res("PATH-RESOLVED", Fail, Critical, "gpu01", "e0", "", "gpu01:e0->gpu10"),
		res("XFER-RUN", Fail, Critical, "gpu01", "e0", "", "gpu01:e0->gpu11:e0"),
	}
	if got := summary(FindCauses(rs, nil)); len(got) != 2 {
		t.Errorf("a transfer to gpu11 joined the missing path to gpu10: %v", got)
	}
}

// A member the hash never chose is no fault of the ports on it: a spine port's headroom
// does not explain XFER-COVERAGE, which stays a cause of its own.
func TestFindCausesCoverageIsItsOwnCause(t *testing.T) {
	const p = "gpu11:e1->gpu12:e1 (path 1 via spine1)"
	rs := []Result{
		res("SW-HEADROOM", Fail, SevError, "spine2", "Ethernet12", "", ""),
		res("XFER-COVERAGE", Fail, SevError, "gpu11", "e1", "", p),
	}
	paths := []PathPorts{{Path: "gpu11:e1->gpu12:e1 via leaf2>spine2>leaf4", Ports: [][2]string{{"leaf2", "swp52"}, {"spine2", "Ethernet12"}}}}
	want := []string{"spine2 Ethernet12 headroom: SW-HEADROOM=1", "gpu11:e1->gpu12:e1 ECMP coverage: XFER-COVERAGE=1"}
	if diff := cmp.Diff(want, summary(FindCauses(rs, paths))); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

// A problem quoted from a CLI row keeps its padding in the result, not in the headline.
func TestCauseHeadlineCollapsesWhitespace(t *testing.T) {
	c := Cause{Device: "leaf4", Interface: "Ethernet1/3", Fact: "DCBX", Problem: "dcbx (Ethernet1/3        Auto On  (8)\t0\n0)",
		Explains: []Explained{{Check: "SW-DCBX", Count: 1}}}
	if h, want := c.Headline(), "leaf4 Ethernet1/3 DCBX: dcbx (Ethernet1/3 Auto On (8) 0 0) -> SW-DCBX"; h != want {
		t.Errorf("headline = %q, want %q", h, want)
	}
}
