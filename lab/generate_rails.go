package lab

import (
	"fmt"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// Rail-optimized generated fabrics (rails=R, R >= 2), as NVIDIA's and Meta's GPU cluster
// designs cable them: each host has one 400G NIC per GPU rail (linuxhost.NewRailHost), and
// rail r of every host goes to leaf group r, so traffic between the same GPU of two hosts
// stays on one rail. The L leaves form R groups of L/R consecutive leaves (leaf group r is
// leaf r*L/R+1 .. (r+1)*L/R); within a group the hosts fill the leaves in blocks of
// ceil(H/(L/R)), one block per leaf, as scalable units do. rails=1 is the dual-port host.

// rails is the number of rails of a generated host: Rails, 0 meaning 1.
func (g Generate) rails() int { return max(1, g.Rails) }

// validateRails checks that the leaves split evenly into one group per rail.
func (g Generate) validateRails() error {
	if r := g.rails(); r > 1 && g.Leaves%r != 0 {
		return fmt.Errorf("generate %s: leaves=%d is not a multiple of rails=%d (each rail has its own leaf group)", g, g.Leaves, r)
	}
	return nil
}

// hostPorts are a generated host's RoCE netdevs, one per rail, in rail order.
func (g Generate) hostPorts() []string {
	if g.rails() == 1 {
		return hostRails[:]
	}
	out := make([]string, g.rails())
	for r := range out {
		out[r] = linuxhost.RailNetdev(r)
	}
	return out
}

// railLeaf is the leaf (0-based) that host h's (1-based) rail r is cabled to.
func (g Generate) railLeaf(h, r int) int {
	perRail := g.Leaves / g.rails()
	perLeaf := (g.Hosts + perRail - 1) / perRail
	return r*perRail + (h-1)/perLeaf
}

// railHosts are the generated rail hosts, healthy.
func (g Generate) railHosts() []*device {
	out := make([]*device, 0, g.Hosts)
	for h := 1; h <= g.Hosts; h++ {
		name := g.hostName(h)
		host := linuxhost.NewRailHost(name, h, g.rails())
		out = append(out, &device{name: name, platform: "linux", dev: host, host: host})
	}
	return out
}

// railPaths are two endpoint pairs of a rail fabric: the first host's rail 0 to the last
// host's rail 0, the same GPU rail (across the rail's leaves when it has several), and the
// last host's last rail to the first host's rail 0, across rails and so through the spines.
func (g Generate) railPaths() [][2]string {
	if g.Hosts < 2 {
		return nil
	}
	first, last := g.hostName(1), g.hostName(g.Hosts)
	return [][2]string{
		{first + ":" + linuxhost.RailNetdev(0), last + ":" + linuxhost.RailNetdev(0)},
		{last + ":" + linuxhost.RailNetdev(g.rails()-1), first + ":" + linuxhost.RailNetdev(0)},
	}
}
