package linux

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// splitECNPath splits /sys/class/net/IF/ecn/POINT/enable/PRIO or /sys/class/net/IF/ecn/roce_np/FILE
// (POINT roce_np or roce_rp, FILE cnp_dscp or cnp_802p_prio; either point is accepted with
// FILE, as ever) into point and prio, or point and file; ok is false for any other path. By
// hand: the regular expression it replaces was 5% of an 8-rail host's collection.
func splitECNPath(path string) (point, prio, file string, ok bool) {
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
		if !allDigits(p) { // strings.Trim(p, "0123456789") built its byte set every line: 60% of this split
			return "", "", "", false
		}
		return point, p, "", true
	}
	if rest != "cnp_dscp" && rest != "cnp_802p_prio" {
		return "", "", "", false
	}
	return point, "", rest, true
}

// ParseECN reads the `grep -s -H .` output over the MLNX_OFED ecn sysfs (en_sysfs.c):
// per-priority notification/reaction point enablement and the CNP DSCP/802.1p priority.
// cnpKnown is false when cnp_dscp was not printed. Text without any enable line is an error:
// the inbox driver has no such files, and "no entries" must not read as "DCQCN off".
func ParseECN(text string) (topology.DCQCN, topology.CNP, bool, error) {
	d := topology.DCQCN{NP: map[int]bool{}, RP: map[int]bool{}}
	var cnp topology.CNP
	cnpKnown := false
	n := -1
	for rest, more := text, true; more; { // SplitSeq's lines, without its iterator's closure
		var line string
		line, rest, more = nextLine(rest)
		n++
		if strings.TrimSpace(line) == "" {
			continue
		}
		path, val, ok := strings.Cut(line, ":")
		point, prioText, file, matched := splitECNPath(path)
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
