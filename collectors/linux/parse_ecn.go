package linux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

var ecnPath = regexp.MustCompile(`^/sys/class/net/[^/]+/ecn/(roce_np|roce_rp)/(?:enable/(\d+)|(cnp_dscp|cnp_802p_prio))$`)

// ParseECN reads the `grep -s -H .` output over the MLNX_OFED ecn sysfs (en_sysfs.c):
// per-priority notification/reaction point enablement and the CNP DSCP/802.1p priority.
// cnpKnown is false when cnp_dscp was not printed. Text without any enable line is an error:
// the inbox driver has no such files, and "no entries" must not read as "DCQCN off".
func ParseECN(text string) (topology.DCQCN, topology.CNP, bool, error) {
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
		m := ecnPath.FindStringSubmatch(path)
		if !ok || m == nil {
			return d, cnp, false, fmt.Errorf("ecn sysfs line %d %s: expected /sys/class/net/IF/ecn/roce_{np,rp}/enable/PRIO:VALUE or .../roce_np/{cnp_dscp,cnp_802p_prio}:VALUE", n+1, collectors.QuoteLine(line))
		}
		v, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			return d, cnp, false, fmt.Errorf("ecn sysfs line %d: value %q is not an integer", n+1, val)
		}
		switch {
		case m[2] != "":
			prio, _ := strconv.Atoi(m[2])
			if prio > 7 || (v != 0 && v != 1) {
				return d, cnp, false, fmt.Errorf("ecn sysfs line %d: expected enable/0..7 holding 0 or 1", n+1)
			}
			if m[1] == "roce_np" {
				d.NP[prio] = v == 1
			} else {
				d.RP[prio] = v == 1
			}
		case m[3] == "cnp_dscp":
			if v < 0 || v > 63 {
				return d, cnp, false, fmt.Errorf("ecn sysfs line %d: cnp_dscp %d out of range 0..63", n+1, v)
			}
			cnp.DSCP, cnpKnown = v, true
		case m[3] == "cnp_802p_prio":
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
