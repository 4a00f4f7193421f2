package linux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
)

// Newer MLNX_OFED also lists per-destination rules: "src_ip=...,dst_ip=a.b.c.d/N,tclass=N".
var ruleTClass = regexp.MustCompile(`^(?:[a-z_]+=[^,\s]+,)*tclass=\d+$`)

// ParseTrafficClass reads /sys/class/infiniband/DEV/tc/PORT/traffic_class (MLNX_OFED): empty
// when unset, else `Global tclass=N`, possibly followed by per-destination rules. Only the
// global value is returned; a file with rules but no global value reads as not set.
func ParseTrafficClass(text string) (tos int, set bool, err error) {
	// By hand (^Global tclass=(\d+)$ and strings.Split were allocations read twice a port).
	n := -1
	for rest, more := text, true; more; {
		var raw string
		raw, rest, more = nextLine(rest)
		n++
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if m, ok := strings.CutPrefix(line, "Global tclass="); ok && allDigits(m) {
			v, err := strconv.Atoi(m)
			if err != nil || v > 255 {
				return 0, false, fmt.Errorf("traffic_class line %d: tclass %s out of range 0..255", n+1, m)
			}
			if set {
				return 0, false, fmt.Errorf("traffic_class line %d: a second Global tclass line", n+1)
			}
			tos, set = v, true
			continue
		}
		if !ruleTClass.MatchString(line) {
			return 0, false, fmt.Errorf("traffic_class line %d %s: expected `Global tclass=N` or a `...,tclass=N` rule", n+1, collectors.QuoteLine(line))
		}
	}
	return tos, set, nil
}

// ParseDefaultRoCEToS reads /sys/kernel/config/rdma_cm/DEV/ports/PORT/default_roce_tos: one
// ToS byte in decimal.
func ParseDefaultRoCEToS(text string) (int, error) {
	s := strings.TrimSpace(text)
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v > 255 {
		return 0, fmt.Errorf("default_roce_tos %q: expected one ToS byte 0..255", s)
	}
	return v, nil
}
