package linux

import (
	"fmt"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// target is one port to audit: a netdev and, when one is bound, its RDMA port.
type target struct {
	netdev string
	dp     DevPort
	bound  bool
	// skip, when set, is why no per-port command may be sent (unsafe name, netdev absent).
	skip string
}

// selectTargets picks the ports to audit: the inventory's interfaces in order, or else every
// RDMA port bound to a netdev whose link layer is Ethernet (or unknown: better audited than
// silently dropped).
func selectTargets(spec inventory.DeviceSpec, d *discovery) []target {
	var out []target
	seen := map[string]bool{}
	add := func(t target) {
		if seen[t.netdev] {
			return
		}
		seen[t.netdev] = true
		if err := topology.ValidName(t.netdev); err != nil {
			t.skip = fmt.Sprintf("not collected: %v; roceaudit never sends such a name to a host", err)
		} else if d.netdevs != nil {
			if _, ok := d.netdev(t.netdev); !ok {
				t.skip = fmt.Sprintf("netdev %s does not exist on this host (absent from `ip addr`)", t.netdev)
			}
		}
		out = append(out, t)
	}
	if len(spec.Interfaces) > 0 {
		for _, name := range spec.Interfaces {
			dp, ok := d.boundPort(name)
			add(target{netdev: name, dp: dp, bound: ok})
		}
		return out
	}
	for _, dp := range sortedDevPorts(d.bindings) {
		netdev := d.bindings[dp]
		if netdev == "" {
			continue
		}
		if p, ok := d.ports[dp]; ok && p.LinkLayer != "Ethernet" {
			continue
		}
		add(target{netdev: netdev, dp: dp, bound: true})
	}
	return out
}
