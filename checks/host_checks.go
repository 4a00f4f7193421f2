package checks

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// hostChecks are the HOST-* checks, one per host port.
func hostChecks() []*Check {
	return []*Check{
		hostRDMAPort(), hostGIDV2(), hostGIDIndex(), hostMTU(), hostRoCEMTU(), hostTrust(),
		hostDSCPMap(), hostPFC(), hostPause(), hostECN(), hostCNP(), hostToS(), hostDCBX(), hostPFCStorm(),
	}
}

// unknown turns an unreadable fact into an `error` verdict: missing data is never a pass.
func unknown(what string, src topology.Evidence) verdict {
	msg := what + " could not be read"
	if src.Error != "" {
		msg += ": " + src.Error
	}
	return verdict{status: Error, actual: "unknown", message: msg, evidence: &src}
}

func ev(src topology.Evidence) *topology.Evidence { return &src }

func hostRDMAPort() *Check {
	return &Check{
		ID: "HOST-RDMA-PORT", Title: "an RDMA device is bound to the netdev, port ACTIVE, link layer Ethernet",
		Scope: ScopeHostPort, Severity: Critical,
		Rationale: "RoCE needs an RDMA port on the netdev that is up and runs Ethernet; a DOWN port " +
			"or an InfiniBand link layer means RDMA traffic cannot take this interface at all.",
		Sources:  []string{"rdma-core ibv_devinfo(1)", "iproute2 rdma-link(8)"},
		Expected: func(recipe.Recipe) string { return "RDMA port bound, PORT_ACTIVE, link layer Ethernet" },
		hostPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if bindingUnknown(p) {
				return unknown("RDMA port binding", p.State.Source)
			}
			if p.RDMADevice == "" {
				return verdict{status: Fail, actual: "no RDMA device bound to " + p.Netdev,
					message: "no RDMA device is bound to this netdev", evidence: ev(p.State.Source)}
			}
			if !p.State.Usable() {
				return unknown("RDMA port state", p.State.Source)
			}
			s := p.State.Value
			actual := p.RDMADevice + "/" + strconv.Itoa(p.RDMAPort) + " " + s.State + ", link layer " + s.LinkLayer
			if s.PhysState != "" {
				actual = p.RDMADevice + "/" + strconv.Itoa(p.RDMAPort) + " " + s.State + " (" + s.PhysState + "), link layer " + s.LinkLayer
			}
			if s.State == "PORT_ACTIVE" && s.LinkLayer == "Ethernet" {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "RDMA port is not active on Ethernet", evidence: ev(p.State.Source)}
		},
	}
}

// bindingUnknown: the collector could not tell which RDMA device the netdev has, if any.
func bindingUnknown(p *topology.HostPort) bool {
	return p.RDMADevice == "" && p.BindingsUnknown
}

// portIPs lists the global addresses on the port's netdev and its upper devices, by netdev.
func portIPs(p *topology.HostPort) []netdevIP {
	var out []netdevIP
	add := func(n topology.Netdev) {
		for _, a := range n.Addresses {
			ip := net.ParseIP(a)
			if ip == nil || ip.IsLinkLocalUnicast() || ip.IsLoopback() {
				continue
			}
			out = append(out, netdevIP{netdev: n.Name, ip: ip})
		}
	}
	if p.Link.Usable() {
		add(p.Link.Value)
	}
	for _, u := range p.Uppers {
		add(u)
	}
	return out
}

type netdevIP struct {
	netdev string
	ip     net.IP
}

// v2Index finds the RoCE v2 GID for an address on a netdev: matched on netdev, type and
// address together, never on an index or an address alone (the same IP can sit on a bond
// and a VXLAN device at once).
func v2Index(gids []topology.GID, a netdevIP) (int, bool) {
	for _, g := range gids {
		if g.Type == topology.GIDTypeV2 && g.Netdev == a.netdev && net.ParseIP(g.IP).Equal(a.ip) {
			return g.Index, true
		}
	}
	return 0, false
}

func hostGIDV2() *Check {
	return &Check{
		ID: "HOST-GID-V2", Title: "a RoCE v2 GID exists for the netdev's IP; the result names its index",
		Scope: ScopeHostPort, Severity: Critical,
		Rationale: "Each IP creates a RoCE v1 and a RoCE v2 GID. RoCEv2 (routable, UDP 4791, DSCP-marked) " +
			"needs the v2 entry; without it applications fall back to v1, which switches cannot classify by DSCP.",
		Sources:  []string{"kernel Documentation/ABI/stable/sysfs-class-infiniband (gid_attrs)", "NVIDIA MLNX_OFED RoCE documentation"},
		Expected: func(recipe.Recipe) string { return "a RoCE v2 GID for every IP of the netdev" },
		hostPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.Link.Usable() {
				return unknown("netdev addresses", p.Link.Source)
			}
			if !p.GIDs.Usable() {
				return unknown("GID table", p.GIDs.Source)
			}
			ips := portIPs(p)
			if len(ips) == 0 {
				return verdict{status: Fail, actual: "no IP address on " + p.Netdev, message: "RoCE v2 needs an IP address on the netdev",
					evidence: ev(p.Link.Source)}
			}
			var found, missing []string
			for _, a := range ips {
				if idx, ok := v2Index(p.GIDs.Value, a); ok {
					found = append(found, a.ip.String()+" on "+a.netdev+" -> GID index "+strconv.Itoa(idx))
				} else {
					missing = append(missing, fmt.Sprintf("%s on %s", a.ip, a.netdev))
				}
			}
			if len(missing) == 0 {
				return verdict{status: Pass, actual: strings.Join(found, "; "), message: "RoCE v2 " + strings.Join(found, "; ")}
			}
			actual := "no RoCE v2 GID for " + strings.Join(missing, ", ")
			if len(found) > 0 {
				actual += " (" + strings.Join(found, "; ") + ")"
			}
			return verdict{status: Fail, actual: actual, message: "RoCE v2 GID missing", evidence: ev(gidExcerpt(p))}
		},
	}
}

// gidExcerpt renders the port's GID table as evidence.
func gidExcerpt(p *topology.HostPort) topology.Evidence {
	src := p.GIDs.Source
	var b strings.Builder
	for _, g := range p.GIDs.Value {
		fmt.Fprintf(&b, "%d %s %s %s\n", g.Index, g.IP, g.Type, g.Netdev)
	}
	src.Excerpt = strings.TrimRight(b.String(), "\n")
	return src
}

func hostGIDIndex() *Check {
	return &Check{
		ID: "HOST-GID-INDEX", Title: "any configured GID index points at the RoCE v2 entry",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "Applications told to use a fixed GID index (NCCL_IB_GID_INDEX, perftest -x) use it " +
			"blindly. Index 3 is usually IPv4 RoCE v2, but more IPs, VLANs or IPv6 shift the table; " +
			"a v1 index silently sends unroutable, unclassified traffic.",
		Sources:  []string{"NCCL environment variables (NCCL_IB_GID_INDEX)", "perftest -x"},
		Expected: func(recipe.Recipe) string { return "configured GID index = a RoCE v2 entry of this netdev" },
		hostPort: func(_ recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if len(p.ConfiguredGIDIndexes) == 0 {
				return verdict{status: Skip, actual: "no GID index configured", message: "no GID index is configured (inventory gid_index, NCCL_IB_GID_INDEX); applications choose their own"}
			}
			// Without the addresses no entry can be told to be this netdev's v2 one: every
			// configured index would look wrong.
			if !p.Link.Usable() {
				return unknown("netdev addresses", p.Link.Source)
			}
			if !p.GIDs.Usable() {
				return unknown("GID table", p.GIDs.Source)
			}
			var v2 []int
			for _, a := range portIPs(p) {
				if idx, ok := v2Index(p.GIDs.Value, a); ok {
					v2 = append(v2, idx)
				}
			}
			var bad, good []string
			for _, c := range p.ConfiguredGIDIndexes {
				desc := fmt.Sprintf("%d (%s)", c.Index, c.Source)
				if slices.Contains(v2, c.Index) {
					good = append(good, desc)
					continue
				}
				bad = append(bad, desc+" is "+describeGID(p.GIDs.Value, c.Index))
			}
			if len(bad) == 0 {
				return verdict{status: Pass, actual: "GID index " + strings.Join(good, ", ")}
			}
			want := "none"
			if len(v2) > 0 {
				want = fmt.Sprint(v2[0])
			}
			return verdict{status: Fail, actual: "GID index " + strings.Join(bad, "; "),
				message:  fmt.Sprintf("the configured GID index is not a RoCE v2 entry of %s; use %s", p.Netdev, want),
				evidence: ev(gidExcerpt(p))}
		},
	}
}

func describeGID(gids []topology.GID, idx int) string {
	for _, g := range gids {
		if g.Index == idx {
			return fmt.Sprintf("%s %s on %s", g.Type, g.IP, g.Netdev)
		}
	}
	return "an empty GID slot"
}

func hostMTU() *Check {
	return &Check{
		ID: "HOST-MTU", Title: "netdev MTU equals host_mtu",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "The RoCE path MTU follows the netdev MTU (active_mtu = largest IB MTU <= MTU - 96). " +
			"Every hop must carry the same jumbo MTU, including VLAN devices stacked on the port.",
		Sources:  []string{"include/rdma/ib_addr.h iboe_get_mtu()"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("MTU %d on the netdev and its VLANs", r.HostMTU) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if !p.Link.Usable() {
				return unknown("netdev MTU", p.Link.Source)
			}
			devs := append([]topology.Netdev{p.Link.Value}, p.Uppers...)
			var parts, wrong []string
			for _, n := range devs {
				parts = append(parts, n.Name+" "+strconv.Itoa(n.MTU))
				if n.MTU != r.HostMTU {
					wrong = append(wrong, n.Name)
				}
			}
			actual := "MTU " + strings.Join(parts, ", ")
			if len(wrong) == 0 {
				return verdict{status: Pass, actual: actual}
			}
			return verdict{status: Fail, actual: actual, message: "MTU differs from the recipe on " + strings.Join(wrong, ", "),
				evidence: ev(p.Link.Source)}
		},
	}
}

func hostRoCEMTU() *Check {
	return &Check{
		ID: "HOST-ROCE-MTU", Title: "RDMA active_mtu equals roce_mtu",
		Scope: ScopeHostPort, Severity: SevError,
		Rationale: "RDMA messages are cut into active_mtu-sized packets; 1024 or 2048 instead of 4096 " +
			"multiplies packet rate and header overhead and caps bandwidth.",
		Sources:  []string{"rdma-core ibv_devinfo(1)", "include/rdma/ib_addr.h iboe_get_mtu()"},
		Expected: func(r recipe.Recipe) string { return fmt.Sprintf("active_mtu %d", r.RoCEMTU) },
		hostPort: func(r recipe.Recipe, _ *topology.Device, p *topology.HostPort) verdict {
			if p.RDMADevice == "" && !bindingUnknown(p) {
				return verdict{status: Skip, actual: "no RDMA device", message: "no RDMA device bound (see HOST-RDMA-PORT)"}
			}
			if !p.State.Usable() {
				return unknown("RDMA active_mtu", p.State.Source)
			}
			s := p.State.Value
			actual := "active_mtu " + strconv.Itoa(s.ActiveMTU) + " (max_mtu " + strconv.Itoa(s.MaxMTU) + ")"
			if s.ActiveMTU == r.RoCEMTU {
				return verdict{status: Pass, actual: actual}
			}
			msg := "active_mtu is below the recipe"
			switch {
			case s.MaxMTU > 0 && s.MaxMTU < r.RoCEMTU:
				msg = fmt.Sprintf("the port supports at most %d", s.MaxMTU)
			case p.Link.Usable() && recipe.ActiveMTUFor(p.Link.Value.MTU) < r.RoCEMTU:
				msg = fmt.Sprintf("netdev MTU %d only allows active_mtu %d", p.Link.Value.MTU, recipe.ActiveMTUFor(p.Link.Value.MTU))
			}
			return verdict{status: Fail, actual: actual, message: msg, evidence: ev(p.State.Source)}
		},
	}
}
