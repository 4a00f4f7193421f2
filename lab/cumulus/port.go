package cumulus

import (
	"sort"
	"strconv"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func version(sw *switchstate.Switch) string {
	if sw.Version != "" {
		return sw.Version
	}
	return DefaultVersion
}

// speed is NVUE's spelling of a port speed ("100G").
func speed(p *switchstate.Port) string { return strconv.Itoa(p.Speed) + "G" }

// sortedPorts is the ports in NVUE order (swp2 before swp10).
func sortedPorts(sw *switchstate.Switch) []*switchstate.Port {
	ps := append([]*switchstate.Port(nil), sw.Ports...)
	sort.SliceStable(ps, func(i, j int) bool { return naturalLess(ps[i].Name, ps[j].Name) })
	return ps
}

// naturalLess orders names with digit runs compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (int, string) {
	n, i := 0, 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		if n < 1<<40 {
			n = n*10 + int(s[i]-'0')
		}
	}
	return n, s[i:]
}
