package lab

import (
	"strconv"
	"strings"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// hostLLDPAge is how long the lab hosts' lldpd has known its neighbours.
const hostLLDPAge = 3*24*time.Hour + 4*time.Hour + 12*time.Minute + 9*time.Second

// seeSwitchesFromHosts lets each host's lldpd learn the switch at the far end of each of its
// cables, with what that switch's NOS advertises. Call it once the switches see their own
// neighbours: SONiC, EOS and NX-OS advertise the port description, which names the neighbour.
func seeSwitchesFromHosts(f fabric, hosts map[string]*linuxhost.Host, switches map[string]*switchstate.Switch) {
	see := func(local, remote end) {
		h, ok := hosts[local.device]
		sw, isSwitch := switches[remote.device]
		if !ok || !isSwitch {
			return
		}
		if h.LLDPNeighbors == nil {
			h.LLDPNeighbors = map[string][]linuxhost.LLDPNeighbor{}
		}
		h.LLDPNeighbors[local.port] = append(h.LLDPNeighbors[local.port], advertised(sw, sw.Port(remote.port)))
	}
	for _, c := range f.cables {
		see(c[0], c[1])
		see(c[1], c[0])
	}
}

// advertised is what a switch's LLDP agent sends out of one port, by platform:
//   - SONiC: lldpmgrd configures lldpd with `portidsubtype local <alias>` and the port's
//     CONFIG_DB description (lab/sonic: alias etpN, description "peer:port");
//   - Cumulus: lldpd with port ID subtype ifname ("swp1"), description the port name;
//   - EOS: the interface name, description the interface description (lab/eos: "peer_port");
//   - NX-OS: the short interface name "Eth1/1" (as lab/nxos shows LLDP), description as EOS.
//
// System descriptions are the usual shapes, not verified captures.
func advertised(sw *switchstate.Switch, p *switchstate.Port) linuxhost.LLDPNeighbor {
	n := linuxhost.LLDPNeighbor{
		ChassisIDType: "mac", ChassisID: sw.MAC, SysName: sw.Name,
		Capabilities: []linuxhost.LLDPCapability{{Type: "Bridge", Enabled: true}, {Type: "Router", Enabled: true}},
		PortIDType:   "ifname", PortID: p.Name, PortDescr: p.Name, TTL: 120, Age: hostLLDPAge,
	}
	label := func(sep string) string {
		if p.Neighbor == nil {
			return p.Name
		}
		return p.Neighbor.SystemName + sep + p.Neighbor.PortName()
	}
	switch sw.Platform {
	case "sonic":
		n.SysDescr = "SONiC Software Version: " + sw.Version + " - HwSku: " + sw.Model
		n.PortIDType, n.PortID, n.PortDescr = "local", sonicAlias(p.Name), label(":")
	case "cumulus":
		n.SysDescr = "Cumulus Linux version " + sw.Version + " running on " + sw.Model
	case "eos":
		n.SysDescr = "Arista Networks EOS version " + sw.Version + " running on an Arista Networks " + sw.Model
		n.PortDescr = label("_")
	case "nxos":
		n.SysDescr = "Cisco Nexus Operating System (NX-OS) Software " + sw.Version
		n.PortID, n.PortDescr = "Eth"+strings.TrimPrefix(p.Name, "Ethernet"), label("_")
	}
	return n
}

// sonicAlias is the CONFIG_DB PORT alias lab/sonic gives EthernetN: etp(N/4+1).
func sonicAlias(port string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(port, "Ethernet"))
	if err != nil {
		return port
	}
	return "etp" + strconv.Itoa(n/4+1)
}

// hostLLDPIDs are the chassis and port IDs stock lldpd announces out of a host netdev without
// an ifalias: port ID subtype mac, the netdev's own MAC (its name goes in the port
// description only). A bond slave shows the bond's MAC, but lldpd reads the permanent one.
func hostLLDPIDs(h *linuxhost.Host, netdev string) (chassis, port string) {
	nd := h.Netdev(netdev)
	chassis, port = nd.MAC.String(), nd.MAC.String()
	if nd.PermMAC != nil {
		port = nd.PermMAC.String()
	}
	return chassis, port
}

// matchHostSpeed runs a switch port at the speed of the host's RDMA port at the other end of
// its cable (a 400G rail NIC needs a 400G port); ports of netdevs without one keep theirs.
func matchHostSpeed(p *switchstate.Port, h *linuxhost.Host, netdev string) {
	if _, rp := h.Port(netdev); rp != nil {
		p.Speed = int(float64(rp.Width) * rp.LaneGbps)
		// A faster port needs more headroom: keep a healthy profile healthy (a planted fault
		// keeps its own, smaller one).
		if p.Headroom == switchstate.HealthyHeadroom {
			p.Headroom = switchstate.HealthyHeadroomFor(p.Speed)
		}
	}
}
