package checks

import (
	"slices"
	"strings"
)

// endpoints resolves the ends of a path key: a transfer names "gpu10:ens1f0np0" where the
// path result of the same endpoint pair may name the bare host "gpu10".
type endpoints map[string][]string // device -> the netdevs its port results name

// auditedNetdevs is every host netdev a port result names (HOST- checks judge one netdev).
func auditedNetdevs(rs []Result) endpoints {
	e := endpoints{}
	for _, r := range rs {
		if strings.HasPrefix(r.Check, "HOST-") && r.Interface != "" && r.Path == "" && !slices.Contains(e[r.Device], r.Interface) {
			e[r.Device] = append(e[r.Device], r.Interface)
		}
	}
	return e
}

// end is "dev:netdev" for an end that names its netdev or a host audited on one netdev only,
// else the bare device.
func (e endpoints) end(s string) string {
	if strings.Contains(s, ":") {
		return s
	}
	if nd := e[s]; len(nd) == 1 {
		return s + ":" + nd[0]
	}
	return s
}

// pair is the endpoint pair of a path key with each end resolved.
func (e endpoints) pair(path string) string {
	a, b, ok := strings.Cut(EndpointPair(path), "->")
	if !ok {
		return EndpointPair(path)
	}
	return e.end(a) + "->" + e.end(b)
}

// sameEnd matches two resolved ends: equal, or one is a bare device the other is a port of.
func sameEnd(x, y string) bool {
	if x == y {
		return true
	}
	dx, _, px := strings.Cut(x, ":")
	dy, _, py := strings.Cut(y, ":")
	return dx == dy && (!px || !py)
}

// pathCause is the cause of the endpoint pair key: the one keyed exactly, else the first one
// whose ends match by device where an end is a bare host.
func (b *causeBuilder) pathCause(key string) (int, bool) {
	if i, ok := b.byPath[key]; ok {
		return i, true
	}
	ka, kb, _ := strings.Cut(key, "->")
	best := -1
	for k, i := range b.byPath {
		a, bb, _ := strings.Cut(k, "->")
		if sameEnd(ka, a) && sameEnd(kb, bb) && (best < 0 || i < best) {
			best = i
		}
	}
	return best, best >= 0
}
