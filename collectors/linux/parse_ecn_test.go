package linux

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func allPrios(v bool) map[int]bool {
	m := map[int]bool{}
	for p := 0; p < 8; p++ {
		m[p] = v
	}
	return m
}

func TestParseECN(t *testing.T) {
	only3 := allPrios(false)
	only3[3] = true
	tests := []struct {
		name     string
		in       string
		dcqcn    topology.DCQCN
		cnp      topology.CNP
		cnpKnown bool
	}{
		{"MLNX_OFED defaults", readFixture(t, "ofed-lossless", "ecn.ens1f0np0"),
			topology.DCQCN{NP: allPrios(true), RP: allPrios(true)}, topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, true},
		{"priority 3 only", readFixture(t, "ipv6-gids-no-rdma", "ecn.ens6"),
			topology.DCQCN{NP: only3, RP: only3}, topology.CNP{DSCP: 48, Priority: 6, HasPrio: true}, true},
		{"older driver without cnp files",
			"/sys/class/net/eth4/ecn/roce_np/enable/3:1\n/sys/class/net/eth4/ecn/roce_rp/enable/3:1\n",
			topology.DCQCN{NP: map[int]bool{3: true}, RP: map[int]bool{3: true}}, topology.CNP{}, false},
		{"cnp dscp without 802.1p priority",
			"/sys/class/net/eth4/ecn/roce_np/enable/3:1\n/sys/class/net/eth4/ecn/roce_np/cnp_dscp:46\n",
			topology.DCQCN{NP: map[int]bool{3: true}, RP: map[int]bool{}}, topology.CNP{DSCP: 46}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, cnp, known, err := ParseECN(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.dcqcn, d); diff != "" {
				t.Errorf("DCQCN (-want +got):\n%s", diff)
			}
			if cnp != tc.cnp || known != tc.cnpKnown {
				t.Errorf("CNP = %+v known %v, want %+v known %v", cnp, known, tc.cnp, tc.cnpKnown)
			}
		})
	}
}

func TestParseECNErrors(t *testing.T) {
	for name, in := range map[string]string{
		"inbox driver: nothing": "",
		"only cnp":              "/sys/class/net/eth4/ecn/roce_np/cnp_dscp:48\n",
		"value 2":               "/sys/class/net/eth4/ecn/roce_np/enable/3:2\n",
		"priority 8":            "/sys/class/net/eth4/ecn/roce_np/enable/8:1\n",
		"cnp dscp 64":           "/sys/class/net/eth4/ecn/roce_np/enable/3:1\n/sys/class/net/eth4/ecn/roce_np/cnp_dscp:64\n",
		"other file":            "/sys/class/net/eth4/ecn/roce_rp/rpg_gd:11\n",
		"not a number":          "/sys/class/net/eth4/ecn/roce_np/enable/3:on\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, _, err := ParseECN(in); err == nil {
				t.Error("want an error")
			}
		})
	}
}

// ecnPathRef is the regular expression splitECNPath replaced: the reference it must agree with.
var ecnPathRef = regexp.MustCompile(`^/sys/class/net/[^/]+/ecn/(roce_np|roce_rp)/(?:enable/(\d+)|(cnp_dscp|cnp_802p_prio))$`)

func TestSplitECNPathAgreesWithRegexp(t *testing.T) {
	paths := []string{"", "/sys/class/net/", "/sys/class/net//ecn/roce_np/enable/3", "/sys/class/net/eth0/ecn/roce_np/enable/3",
		"/sys/class/net/eth0/ecn/roce_rp/enable/07", "/sys/class/net/eth0/ecn/roce_rp/enable/", "/sys/class/net/eth0/ecn/roce_rp/enable/3x",
		"/sys/class/net/eth0/ecn/roce_np/cnp_dscp", "/sys/class/net/eth0/ecn/roce_rp/cnp_802p_prio", "/sys/class/net/eth0/ecn/roce_xp/enable/1",
		"/sys/class/net/eth0/ecn/roce_np/cnp_dscpx", "/sys/class/net/a/b/ecn/roce_np/enable/1", "/sys/class/net/eth0/ecn/roce_np",
		"/sys/class/net/eth0/ecn/roce_np/", "/sys/class/net/eth0/ecn/roce_npx/enable/1", "x/sys/class/net/eth0/ecn/roce_np/enable/1",
		"/sys/class/net/eth0/ecn/roce_np/enable/99999999999999999999", "/sys/class/net/eth0/ecn/roce_np/enable/1/2"}
	for _, p := range paths {
		point, prio, file, ok := splitECNPath(p)
		m := ecnPathRef.FindStringSubmatch(p)
		if ok != (m != nil) || (m != nil && (point != m[1] || prio != m[2] || file != m[3])) {
			t.Errorf("%q: split %q %q %q %v, regexp %q", p, point, prio, file, ok, m)
		}
	}
}
