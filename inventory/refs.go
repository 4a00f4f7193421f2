package inventory

import (
	"strings"

	"github.com/roceaudit/roceaudit/topology"
	"gopkg.in/yaml.v3"
)

// pair returns the two scalar strings of a [a, b] list item.
func (p *parser) pair(n *yaml.Node, key, expect string) (a, b string, ok bool) {
	v := deref(n)
	if v == nil || v.Kind != yaml.SequenceNode || len(v.Content) != 2 {
		p.errorf(n, "%s: expected a pair [%s, %s], got %s", key, expect, expect, describe(n))
		return "", "", false
	}
	a, okA := p.str(v.Content[0], key, expect)
	b, okB := p.str(v.Content[1], key, expect)
	return a, b, okA && okB
}

// links reads `links:`; every end must be a port of an inventory device, and a port has one
// peer (a second link on it is a typo, not a topology).
func (p *parser) links(n *yaml.Node, devs map[string]DeviceSpec) []topology.Link {
	if isNull(n) {
		return nil
	}
	items, ok := p.list(n, "links", "a list of [device:interface, device:interface] pairs")
	if !ok {
		return nil
	}
	var out []topology.Link
	linked := map[topology.PortRef]int{} // port -> line of its link
	for _, it := range items {
		a, b, ok := p.pair(it, "links", "device:interface")
		if !ok {
			continue
		}
		ends := deref(it).Content
		pa, okA := p.portRef(ends[0], a, devs)
		pb, okB := p.portRef(ends[1], b, devs)
		if !okA || !okB {
			continue
		}
		if pa == pb {
			p.errorf(ends[1], "links: %s is linked to itself", pa)
			continue
		}
		dup := false
		for i, pr := range []topology.PortRef{pa, pb} {
			if line, seen := linked[pr]; seen {
				p.errorf(ends[i], "links: %s is already linked at line %d (a port has one peer)", pr, line)
				dup = true
			}
		}
		if dup {
			continue
		}
		linked[pa], linked[pb] = ends[0].Line, ends[1].Line
		out = append(out, topology.Link{A: pa, B: pb, Source: "inventory"})
	}
	return out
}

func (p *parser) portRef(n *yaml.Node, s string, devs map[string]DeviceSpec) (topology.PortRef, bool) {
	dev, iface, ok := strings.Cut(s, ":")
	if !ok || dev == "" || iface == "" {
		p.errorf(n, "links: %q is not device:interface (e.g. leaf1:Ethernet0)", s)
		return topology.PortRef{}, false
	}
	if _, ok := devs[dev]; !ok {
		p.errorf(n, "links: unknown device %q (not under hosts: or switches:)", dev)
		return topology.PortRef{}, false
	}
	if err := topology.ValidName(iface); err != nil {
		p.errorf(n, "links: %v", err)
		return topology.PortRef{}, false
	}
	return topology.PortRef{Device: dev, Interface: iface}, true
}

// paths reads `paths:`, pairs of endpoints: a host, host:netdev, or an IP address.
func (p *parser) paths(n *yaml.Node, devs map[string]DeviceSpec) [][2]string {
	if isNull(n) {
		return nil
	}
	items, ok := p.list(n, "paths", "a list of [endpoint, endpoint] pairs")
	if !ok {
		return nil
	}
	var out [][2]string
	for _, it := range items {
		a, b, ok := p.pair(it, "paths", "host, host:netdev or IP")
		if !ok {
			continue
		}
		ends := deref(it).Content
		if !p.endpoint(ends[0], a, devs) || !p.endpoint(ends[1], b, devs) {
			continue
		}
		if a == b {
			p.errorf(ends[1], "paths: both ends are %s (expected two different endpoints)", a)
			continue
		}
		out = append(out, [2]string{a, b})
	}
	return out
}

func (p *parser) endpoint(n *yaml.Node, s string, devs map[string]DeviceSpec) bool {
	if err := checkEndpoint(s, func(name string) (DeviceSpec, bool) { d, ok := devs[name]; return d, ok }); err != nil {
		p.errorf(n, "paths: %v", err)
		return false
	}
	return true
}
