package checks

import (
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// PathSpec is one endpoint pair to resolve (from --path or the inventory's paths:).
type PathSpec struct {
	From, To string
}

// ResolvedPath is an endpoint pair with its equal-cost paths.
type ResolvedPath struct {
	Spec      PathSpec
	From, To  topology.Endpoint
	Paths     [][]topology.Hop
	Truncated bool
	Err       error // the endpoints could not be resolved
}

// Name is how results and reports refer to the pair: "gpu01:ens1f0np0->gpu05:ens1f0np0".
func (p ResolvedPath) Name() string {
	if p.Err != nil {
		return p.Spec.From + "->" + p.Spec.To
	}
	return p.From.String() + "->" + p.To.String()
}

// Via names one equal-cost member by its transit devices: "leaf1>spine1>leaf3".
func Via(hops []topology.Hop) string {
	var mid []string
	for _, h := range hops[1 : len(hops)-1] {
		mid = append(mid, h.Device)
	}
	return strings.Join(mid, ">")
}

// ResolvePaths resolves endpoint pairs over the snapshot's links (declared and LLDP).
func ResolvePaths(snap *topology.Snapshot, specs []PathSpec) []ResolvedPath {
	if len(specs) == 0 {
		return nil
	}
	return resolvePaths(snap, topology.ResolveLinks(snap), specs)
}

// resolvePaths is ResolvePaths over links already resolved.
func resolvePaths(snap *topology.Snapshot, links []topology.Link, specs []PathSpec) []ResolvedPath {
	if len(specs) == 0 {
		return nil
	}
	g := topology.NewGraph(snap.Devices, links)
	var out []ResolvedPath
	for _, s := range specs {
		rp := ResolvedPath{Spec: s}
		rp.From, rp.Err = topology.ResolveEndpoint(snap, s.From)
		if rp.Err == nil {
			rp.To, rp.Err = topology.ResolveEndpoint(snap, s.To)
		}
		if rp.Err == nil {
			rp.Paths, rp.Truncated, rp.Err = g.Paths(rp.From, rp.To)
		}
		out = append(out, rp)
	}
	return out
}

// scope is the set of ports and links a restricted (--path) audit looks at.
type scope struct {
	ports   map[string]bool // device + "|" + normalized port
	links   map[[2]string]bool
	devices map[string]bool // the paths' endpoints: their device checks say why a path is missing
}

func portKey(device, port string) string { return device + "|" + topology.NormalizePort(port) }

func linkKey(l topology.Link) [2]string {
	a, b := portKey(l.A.Device, l.A.Interface), portKey(l.B.Device, l.B.Interface)
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// pathScope collects every hop port and hop link of the resolved paths, and their endpoint
// devices.
func pathScope(paths []ResolvedPath, isDevice func(name string) bool) *scope {
	s := &scope{ports: map[string]bool{}, links: map[[2]string]bool{}, devices: map[string]bool{}}
	for _, rp := range paths {
		// The endpoints' device checks are in scope whether or not a path reaches them: an
		// unreachable gpu09 ("gpu09" or "gpu09:ens1" when it did not resolve) is why there is
		// none, which its COLLECT-REACH says.
		ends := []string{rp.From.Device, rp.To.Device}
		if rp.Err != nil {
			ends = []string{rp.Spec.From, rp.Spec.To}
		}
		for _, end := range ends {
			if name, _, _ := strings.Cut(end, ":"); name != "" && isDevice(name) {
				s.devices[name] = true
			}
		}
		for _, hops := range rp.Paths {
			for i, h := range hops {
				if h.InPort != "" {
					s.ports[portKey(h.Device, h.InPort)] = true
				}
				if h.OutPort != "" {
					s.ports[portKey(h.Device, h.OutPort)] = true
					next := hops[i+1]
					s.links[linkKey(topology.Link{A: topology.PortRef{Device: h.Device, Interface: h.OutPort},
						B: topology.PortRef{Device: next.Device, Interface: next.InPort}})] = true
				}
			}
		}
	}
	return s
}

// hasDevice: a device is in scope when one of its ports is (path endpoints and transit hops).
func (s *scope) hasDevice(name string) bool {
	if s == nil || s.devices[name] {
		return true
	}
	for k := range s.ports {
		if strings.HasPrefix(k, name+"|") {
			return true
		}
	}
	return false
}

func (s *scope) hasPort(device, port string) bool { return s == nil || s.ports[portKey(device, port)] }
func (s *scope) hasLink(l topology.Link) bool     { return s == nil || s.links[linkKey(l)] }
