package lab

import (
	"fmt"
	"strconv"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// ScenarioGenerated is Lab.Scenario of a generated fabric (Options.Generate); it is not one
// of Scenarios(), since a generated fabric needs its size.
const ScenarioGenerated = "generated"

// generatedPlatforms cycle over the leaves, then on over the spines, so every emulator runs
// in a fabric of four switches or more.
var generatedPlatforms = []string{"sonic", "cumulus", "eos", "nxos"}

// platformProfile is a generated switch of one platform: the fixed lab's leaf model and
// version, the platform's 9216-class MTU and its front-panel port names.
type platformProfile struct {
	model, version string
	mtu            int
	port           func(i int) string // the i-th front-panel port, 0-based
}

var platformProfiles = map[string]platformProfile{
	// SONiC numbers ports by their first SerDes lane: four lanes per 100G port.
	"sonic":   {"Mellanox-SN4600C", "SONiC.202405", 9216, func(i int) string { return "Ethernet" + strconv.Itoa(4*i) }},
	"cumulus": {"MSN3700", "5.9.1", 9216, func(i int) string { return "swp" + strconv.Itoa(i+1) }},
	"eos":     {"DCS-7050CX3-32S", "4.31.2F", 9214, func(i int) string { return "Ethernet" + strconv.Itoa(i+1) }},
	"nxos":    {"N9K-C93180YC-FX", "10.3(4a)", 9216, func(i int) string { return "Ethernet1/" + strconv.Itoa(i+1) }},
}

// hostRails are a generated host's RoCE ports, one per rail: two, as on the fixed lab's hosts
// (the standard GPU host profile has a dual-port NIC), so multi-rail cabling is exercised too.
var hostRails = [2]string{linuxhost.Port0, linuxhost.Port1}

// hostName is host h's name (1-based): gpu01.., zero-padded to the widest number.
func (g Generate) hostName(h int) string {
	width := max(2, len(strconv.Itoa(g.Hosts)))
	return fmt.Sprintf("gpu%0*d", width, h)
}

// leafOf is the leaf (0-based) that host h's (1-based) rail-r port is cabled to. The leaves
// alternate rails (leaf1, leaf3, ... carry rail 0; leaf2, leaf4, ... rail 1) and each rail's
// ports go round-robin over its leaves. A single leaf carries both rails. With rails=R >= 2,
// railLeaf decides.
func (g Generate) leafOf(h, r int) int {
	if g.rails() > 1 {
		return g.railLeaf(h, r)
	}
	if g.Leaves == 1 {
		return 0
	}
	railLeaves := (g.Leaves - r + 1) / 2
	return r + 2*((h-1)%railLeaves)
}

// fabric wires the generated Clos: leaves then spines with platforms cycling, each host's
// rail ports on leaves (leafOf), every leaf cabled to every spine. A leaf's host ports come
// first, then its uplinks in spine order; a spine's ports are in leaf order.
func (g Generate) fabric() fabric {
	switches := make([]switchSpec, 0, g.Leaves+g.Spines)
	for i := range g.Leaves + g.Spines {
		name := "leaf" + strconv.Itoa(i+1)
		if i >= g.Leaves {
			name = "spine" + strconv.Itoa(i-g.Leaves+1)
		}
		platform := generatedPlatforms[i%len(generatedPlatforms)]
		p := platformProfiles[platform]
		switches = append(switches, switchSpec{name: name, platform: platform, model: p.model, version: p.version, mtu: p.mtu})
	}
	plug := func(i int) end { // the next free port of switch i
		s := &switches[i]
		port := platformProfiles[s.platform].port(len(s.ports))
		s.ports = append(s.ports, port)
		return end{s.name, port}
	}
	ports := g.hostPorts()
	cables := make([][2]end, 0, len(ports)*g.Hosts+g.Leaves*g.Spines)
	for h := 1; h <= g.Hosts; h++ {
		for r, netdev := range ports {
			cables = append(cables, [2]end{{g.hostName(h), netdev}, plug(g.leafOf(h, r))})
		}
	}
	for l := range g.Leaves {
		for s := range g.Spines {
			cables = append(cables, [2]end{plug(l), plug(g.Leaves + s)})
		}
	}
	return fabric{switches: switches, cables: cables}
}

// build returns the generated fabric's devices: healthy hosts first, then switches.
func (g Generate) build(latency time.Duration) []*device {
	return withSwitches(g.fabric(), ScenarioGenerated, g.hosts(), latency)
}

// Paths are up to two endpoint pairs of a generated fabric that cross the spines: the first
// host's rail-0 port, and the last host's rail-1 port, each to the first port of another host
// on a different leaf (same rail preferred). With a single leaf they stay on it; a single host
// has none.
func (g Generate) Paths() [][2]string {
	if g.rails() > 1 {
		return g.railPaths()
	}
	if g.Hosts < 2 {
		return nil
	}
	var out [][2]string
	for _, from := range [][2]int{{1, 0}, {g.Hosts, 1}} {
		h, r := from[0], from[1]
		th, tr := g.farPort(h, r)
		p := [2]string{g.hostName(h) + ":" + hostRails[r], g.hostName(th) + ":" + hostRails[tr]}
		if len(out) == 0 || out[0] != p {
			out = append(out, p)
		}
	}
	return out
}

// farPort is the first port (host, rail) of another host than h on a different leaf from
// host h's rail-r port, trying rail r first; the next host's rail-r port when every port
// shares that leaf.
func (g Generate) farPort(h, r int) (int, int) {
	leaf := g.leafOf(h, r)
	for _, rail := range []int{r, 1 - r} {
		for o := 1; o <= g.Hosts; o++ {
			if o != h && g.leafOf(o, rail) != leaf {
				return o, rail
			}
		}
	}
	return h%g.Hosts + 1, r
}

// DeclaredLinks are the links a generated fabric's inventory declares: the first host's
// cables, as cabled (LLDP finds the rest).
func (g Generate) DeclaredLinks() [][2]string {
	var out [][2]string
	for _, c := range g.fabric().cables[:len(g.hostPorts())] {
		out = append(out, [2]string{c[0].device + ":" + c[0].port, c[1].device + ":" + c[1].port})
	}
	return out
}
