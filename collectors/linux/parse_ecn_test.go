package linux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
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

// splitECNPathRef is splitECNPath as it was before its PRIO test lost strings.Trim: the oracle.
func splitECNPathRef(path string) (point, prio, file string, ok bool) {
	rest, ok := strings.CutPrefix(path, "/sys/class/net/")
	i := strings.IndexByte(rest, '/')
	if !ok || i <= 0 {
		return "", "", "", false
	}
	rest, ok = strings.CutPrefix(rest[i:], "/ecn/")
	if !ok || len(rest) < len("roce_np/") || rest[len("roce_np")] != '/' {
		return "", "", "", false
	}
	point, rest = rest[:len("roce_np")], rest[len("roce_np/"):]
	if point != "roce_np" && point != "roce_rp" {
		return "", "", "", false
	}
	if p, isEnable := strings.CutPrefix(rest, "enable/"); isEnable {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return "", "", "", false
		}
		return point, p, "", true
	}
	if rest != "cnp_dscp" && rest != "cnp_802p_prio" {
		return "", "", "", false
	}
	return point, "", rest, true
}

// go test -run XXX -fuzz FuzzSplitECNPath -fuzztime 45s ./collectors/linux
func FuzzSplitECNPath(f *testing.F) {
	for _, s := range []string{"/sys/class/net/e/ecn/roce_np/enable/3", "/sys/class/net/e/ecn/roce_rp/enable/", "/sys/class/net/e/ecn/roce_rp/enable/1x",
		"/sys/class/net/e/ecn/roce_rp/enable/٣", "/sys/class/net/e/ecn/roce_np/cnp_dscp", "/sys/class/net/e/ecn/roce_np/enable/07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, c, d := splitECNPath(s)
		ra, rb, rc, rd := splitECNPathRef(s)
		if a != ra || b != rb || c != rc || d != rd {
			t.Fatalf("splitECNPath(%q) = %q %q %q %v, was %q %q %q %v", s, a, b, c, d, ra, rb, rc, rd)
		}
	})
}

// parseECNRef is ParseECN as it was before its lines were cut by nextLine: the oracle.
func parseECNRef(text string) (topology.DCQCN, topology.CNP, bool, error) {
	d := topology.DCQCN{NP: map[int]bool{}, RP: map[int]bool{}}
	var cnp topology.CNP
	cnpKnown := false
	n := -1
	for line := range strings.SplitSeq(text, "\n") {
		n++
		if strings.TrimSpace(line) == "" {
			continue
		}
		path, val, ok := strings.Cut(line, ":")
		point, prioText, file, matched := splitECNPathRef(path)
		if !ok || !matched {
			return d, cnp, false, fmt.Errorf("ecn sysfs line %d %s: expected /sys/class/net/IF/ecn/roce_{np,rp}/enable/PRIO:VALUE or .../roce_np/{cnp_dscp,cnp_802p_prio}:VALUE", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			return d, cnp, false, fmt.Errorf("ecn sysfs line %d: value %q is not an integer", n+1, val)
		}
		switch {
		case prioText != "":
			prio, _ := strconv.Atoi(prioText)
			if prio > 7 || (v != 0 && v != 1) {
				return d, cnp, false, fmt.Errorf("ecn sysfs line %d: expected enable/0..7 holding 0 or 1", n+1)
			}
			if point == "roce_np" {
				d.NP[prio] = v == 1
			} else {
				d.RP[prio] = v == 1
			}
		case file == "cnp_dscp":
			if v < 0 || v > 63 {
				return d, cnp, false, fmt.Errorf("ecn sysfs line %d: cnp_dscp %d out of range 0..63", n+1, v)
			}
			cnp.DSCP, cnpKnown = v, true
		case file == "cnp_802p_prio":
			if v < 0 || v > 7 {
				return d, cnp, false, fmt.Errorf("ecn sysfs line %d: cnp_802p_prio %d out of range 0..7", n+1, v)
			}
			cnp.Priority, cnp.HasPrio = v, true
		}
	}
	if len(d.NP) == 0 && len(d.RP) == 0 {
		return d, cnp, false, fmt.Errorf("ecn sysfs: no roce_np/roce_rp enable entries (expected MLNX_OFED /sys/class/net/IF/ecn files)")
	}
	return d, cnp, cnpKnown, nil
}

// ParseECN reads every text as its oracle does (facts and errors).
func FuzzParseECNOracle(f *testing.F) {
	addSeeds(f, lineVariants(fixtureFiles(f, "ecn.*")[0], 3)...)
	f.Add("/sys/class/net/e/ecn/roce_np/enable/3:1\n/sys/class/net/e/ecn/roce_np/cnp_dscp:48\n\n")
	f.Add("/sys/class/net/e/ecn/roce_rp/enable/9:1")
	f.Add("x\n/sys/class/net/e/ecn/roce_rp/enable/1:2\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, c, k, err := ParseECN(s)
		rd, rc, rk, rerr := parseECNRef(s)
		if diff := cmp.Diff([]any{rd, rc, rk, fmt.Sprint(rerr)}, []any{d, c, k, fmt.Sprint(err)}); diff != "" {
			t.Fatalf("ParseECN(%q) (-old +new):\n%s", s, diff)
		}
	})
}
