package linux

import (
	"fmt"
	"net"
	"strings"

	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// host is what a fix names of a host port: the netdev, the RDMA device and port bound to it
// (looked up from sysfs when the facts do not say), and the facts themselves (nil when the
// port was not read).
type host struct {
	netdev   string
	rdma     string
	rdmaPort int
	p        *topology.HostPort
}

func hostOf(in remedy.Input) host {
	h := host{netdev: in.Port, rdma: fmt.Sprintf("$(ls /sys/class/net/%s/device/infiniband)", in.Port), rdmaPort: 1, p: in.Host}
	if p := in.Host; p != nil {
		if p.Netdev != "" {
			h.netdev = p.Netdev
		}
		if p.RDMADevice != "" {
			h.rdma, h.rdmaPort = p.RDMADevice, p.RDMAPort
		}
	}
	return h
}

// qos picks the command of the tool the host uses; both, when the facts do not say.
func (h host) qos(mlnx, dcb string) string {
	if h.p != nil && h.p.QoS.Usable() {
		if h.p.QoS.Value.Tool == "dcb" {
			return dcb
		}
		return mlnx
	}
	return mlnx + " (inbox driver: " + dcb + ")"
}

// pci is a shell expression for the PCI address of the RDMA device.
func (h host) pci() string {
	return fmt.Sprintf("$(basename $(readlink -f /sys/class/infiniband/%s/device))", h.rdma)
}

// wrongMTU are the netdev and its uppers whose MTU is not mtu; the netdev alone without facts.
func (h host) wrongMTU(mtu int) []string {
	if h.p == nil || !h.p.Link.Usable() {
		return []string{h.netdev}
	}
	var out []string
	for _, n := range append([]topology.Netdev{h.p.Link.Value}, h.p.Uppers...) {
		if n.MTU != mtu {
			out = append(out, n.Name)
		}
	}
	if len(out) == 0 {
		out = []string{h.netdev}
	}
	return out
}

// vlans formats the upper devices' names into format, or "" when there are none.
func (h host) vlans(format string) string {
	if h.p == nil || len(h.p.Uppers) == 0 {
		return ""
	}
	var names []string
	for _, u := range h.p.Uppers {
		names = append(names, u.Name)
	}
	return fmt.Sprintf(format, strings.Join(names, ", "))
}

type netdevAddr struct {
	netdev string
	ip     net.IP
}

// addresses are the global addresses on the netdev and its uppers.
func (h host) addresses() []netdevAddr {
	if h.p == nil {
		return nil
	}
	var out []netdevAddr
	devs := h.p.Uppers
	if h.p.Link.Usable() {
		devs = append([]topology.Netdev{h.p.Link.Value}, devs...)
	}
	for _, n := range devs {
		for _, a := range n.Addresses {
			if ip := net.ParseIP(a); ip != nil && !ip.IsLinkLocalUnicast() && !ip.IsLoopback() {
				out = append(out, netdevAddr{n.Name, ip})
			}
		}
	}
	return out
}

// v2Index is the first RoCE v2 GID index on one of the port's addresses.
func (h host) v2Index() (int, bool) {
	if h.p == nil || !h.p.GIDs.Usable() {
		return 0, false
	}
	for _, a := range h.addresses() {
		for _, g := range h.p.GIDs.Value {
			if g.Type == topology.GIDTypeV2 && g.Netdev == a.netdev && net.ParseIP(g.IP).Equal(a.ip) {
				return g.Index, true
			}
		}
	}
	return 0, false
}

// exampleHost is the facts explain shows the Linux fixes for: a ConnectX port on MLNX_OFED
// left at its defaults, its RoCE address on VLAN 100, the link down.
func exampleHost() *topology.HostPort {
	src := topology.Evidence{Command: "example"}
	vlan := topology.Netdev{Name: "ens1f0np0.100", MTU: 1500, OperState: "UP", Kind: "vlan", Lower: "ens1f0np0", VLANID: 100,
		Addresses: []string{"10.1.0.5"}}
	return &topology.HostPort{
		Netdev: "ens1f0np0", RDMADevice: "mlx5_0", RDMAPort: 1,
		Link:   topology.Known(topology.Netdev{Name: "ens1f0np0", MTU: 1500, OperState: "DOWN"}, src),
		Uppers: []topology.Netdev{vlan},
		State: topology.Known(topology.RDMAPort{State: "PORT_DOWN", PhysState: "DISABLED", LinkLayer: "Ethernet",
			MaxMTU: 4096, ActiveMTU: 1024}, src),
		GIDs: topology.Known([]topology.GID{
			{Index: 2, IP: "10.1.0.5", Type: topology.GIDTypeV1, Netdev: vlan.Name},
			{Index: 3, IP: "10.1.0.5", Type: topology.GIDTypeV2, Netdev: vlan.Name}}, src),
		QoS:   topology.Known(topology.HostQoS{Tool: "mlnx_qos", Trust: "pcp"}, src),
		Pause: topology.Known(topology.Pause{RX: true, TX: true}, src),
		DCQCN: topology.Known(topology.DCQCN{NP: map[int]bool{}, RP: map[int]bool{}}, src),
		CNP:   topology.Known(topology.CNP{DSCP: 0, Priority: 0, HasPrio: true}, src),
		ToS:   topology.Known(topology.ToS{}, src),
		DCBX:  topology.Known(topology.DCBX{Mode: "dcbx", Detail: "firmware"}, src),
	}
}
