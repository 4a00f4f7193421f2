package reports

import (
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/checks"
)

// routeScope is one equal-cost route of an endpoint pair, for deciding which results judge a
// hop or a link of it: a hop is bad for what is wrong on its own ports, or for what this
// route's results say of it, never for another path's problems or for the transfer as a
// whole (XFER-BW names the sender, not a fault of it).
type routeScope struct {
	pair string // "gpu01:ens1f0np0->gpu05:ens1f0np0"
	via  string // "leaf1>spine1>leaf3", as route results name it
}

func newRouteScope(p Path, hops []Hop) routeScope {
	var devs []string
	for i := 1; i+1 < len(hops); i++ {
		devs = append(devs, hops[i].Device)
	}
	return routeScope{pair: p.From + "->" + p.To, via: strings.Join(devs, ">")}
}

// owns reports whether a result's path is this route: its endpoint pair, on every route of
// it or on this one.
func (s routeScope) owns(path string) bool {
	n := checks.ParsePathName(path) // a member's transfer (--all-paths) is its whole pair's
	return n.Pair == s.pair && (n.Route == "" || n.Route == s.via)
}

// namesHop reports whether a path's check blames the hops it names (a lossy hop, a hop below
// the MTU) rather than the endpoint pair (PATH-RESOLVED) or the transfer (XFER-BW, XFER-RUN).
func namesHop(check string) bool {
	return (strings.HasPrefix(check, "PATH-") && check != "PATH-RESOLVED") || check == "XFER-RETRANS"
}

// portOwnedCheck reports whether a check judges a port's (or its device's) own state.
func portOwnedCheck(check string) bool {
	for _, p := range []string{"HOST-", "SW-", "LINK-", "COLLECT-"} {
		if strings.HasPrefix(check, p) {
			return true
		}
	}
	return false
}

// hopStatus is the worst result that judges device dev on this route through ports: its
// port-owned checks on them (or on the whole device), and this route's results that name them.
func (s routeScope) hopStatus(rs []checks.Result, dev string, ports ...string) checks.Status {
	return worstOf(rs, func(res checks.Result) bool {
		if res.Device != dev {
			return false
		}
		onPort := res.Interface != "" && slices.Contains(ports, res.Interface)
		if res.Path == "" {
			return portOwnedCheck(res.Check) && (onPort || res.Interface == "")
		}
		return onPort && namesHop(res.Check) && s.owns(res.Path)
	})
}

// linkStatus is the worst of a link's LINK- results and of this route's results that name
// either end.
func (s routeScope) linkStatus(rs []checks.Result, a, b portKey) checks.Status {
	return worstOf(rs, func(res checks.Result) bool {
		p := portKey{res.Device, res.Interface}
		if res.Interface == "" || (p != a && p != b) {
			return false
		}
		if res.Path == "" {
			return strings.HasPrefix(res.Check, "LINK-")
		}
		return namesHop(res.Check) && s.owns(res.Path)
	})
}
