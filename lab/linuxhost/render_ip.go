package linuxhost

import (
	"bytes"
	"encoding/json"
	"net/netip"
)

// ipLink is one element of `ip -d -j addr show`, keys in iproute2's print order
// (iproute2 ip/ipaddress.c print_linkinfo).
type ipLink struct {
	IfIndex        int         `json:"ifindex"`
	IfName         string      `json:"ifname"`
	Link           string      `json:"link,omitempty"`
	Flags          []string    `json:"flags"`
	MTU            int         `json:"mtu"`
	Qdisc          string      `json:"qdisc"`
	Master         string      `json:"master,omitempty"`
	OperState      string      `json:"operstate"`
	Group          string      `json:"group"`
	TxQLen         int         `json:"txqlen"`
	LinkType       string      `json:"link_type"`
	Address        string      `json:"address"`
	Broadcast      string      `json:"broadcast"`
	Promiscuity    int         `json:"promiscuity"`
	AllMulti       int         `json:"allmulti"`
	MinMTU         int         `json:"min_mtu"`
	MaxMTU         int         `json:"max_mtu"`
	LinkInfo       *ipLinkInfo `json:"linkinfo,omitempty"`
	AddrGenMode    string      `json:"inet6_addr_gen_mode"`
	NumTxQueues    int         `json:"num_tx_queues"`
	NumRxQueues    int         `json:"num_rx_queues"`
	GSOMaxSize     int         `json:"gso_max_size"`
	GSOMaxSegs     int         `json:"gso_max_segs"`
	TSOMaxSize     int         `json:"tso_max_size"`
	TSOMaxSegs     int         `json:"tso_max_segs"`
	GROMaxSize     int         `json:"gro_max_size"`
	GSOIPv4MaxSize int         `json:"gso_ipv4_max_size"`
	GROIPv4MaxSize int         `json:"gro_ipv4_max_size"`
	ParentBus      string      `json:"parentbus,omitempty"`
	ParentDev      string      `json:"parentdev,omitempty"`
	AddrInfo       []ipAddr    `json:"addr_info"`
}

type ipLinkInfo struct {
	InfoKind      string `json:"info_kind,omitempty"`
	InfoData      any    `json:"info_data,omitempty"` // *ipVLANData, *ipBondData
	InfoSlaveKind string `json:"info_slave_kind,omitempty"`
	InfoSlaveData any    `json:"info_slave_data,omitempty"`
}

type ipVLANData struct {
	Protocol string   `json:"protocol"`
	ID       int      `json:"id"`
	Flags    []string `json:"flags"`
}

type ipAddr struct {
	Family            string `json:"family"`
	Local             string `json:"local"`
	PrefixLen         int    `json:"prefixlen"`
	Broadcast         string `json:"broadcast,omitempty"`
	Scope             string `json:"scope"`
	Label             string `json:"label,omitempty"`
	ValidLifeTime     uint32 `json:"valid_life_time"`
	PreferredLifeTime uint32 `json:"preferred_life_time"`
}

const forever = 4294967295

// renderIPAddr is `ip -d -j addr show`: one compact JSON array and a newline.
func (h *Host) renderIPAddr() string {
	links := make([]ipLink, 0, len(h.Netdevs))
	for _, n := range h.Netdevs {
		links = append(links, ipLinkOf(n))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(links); err != nil {
		// Only plain strings and numbers go in; failing here is a programming error.
		panic(err)
	}
	return b.String()
}

func ipLinkOf(n *Netdev) ipLink {
	l := ipLink{
		IfIndex: n.Index, IfName: n.Name, MTU: n.MTU, OperState: n.OperState(),
		Group: "default", TxQLen: 1000, LinkType: "ether", Address: n.MAC.String(),
		Broadcast: "ff:ff:ff:ff:ff:ff", AddrGenMode: "eui64",
		GSOMaxSize: 65536, GSOMaxSegs: 65535, TSOMaxSize: 524280, TSOMaxSegs: 65535,
		GROMaxSize: 65536, GSOIPv4MaxSize: 65536, GROIPv4MaxSize: 65536,
		AddrInfo: []ipAddr{},
	}
	switch n.Kind {
	case "loopback":
		l.Flags = []string{"LOOPBACK", "UP", "LOWER_UP"}
		l.Qdisc, l.LinkType = "noqueue", "loopback"
		l.Address, l.Broadcast = "00:00:00:00:00:00", "00:00:00:00:00:00"
		l.NumTxQueues, l.NumRxQueues = 1, 1
		l.TSOMaxSize, l.TSOMaxSegs = 524280, 65535
	case "vlan":
		l.Link = n.Lower
		l.Flags = linkFlags(n)
		l.Qdisc, l.TxQLen = "noqueue", 0
		l.MinMTU, l.MaxMTU = 0, 65535
		l.LinkInfo = &ipLinkInfo{InfoKind: "vlan", InfoData: &ipVLANData{
			Protocol: "802.1Q", ID: n.VLANID, Flags: []string{"REORDER_HDR"}}}
		l.NumTxQueues, l.NumRxQueues = 1, 1
	case "bond":
		l.Flags = append(linkFlags(n)[:2:2], append([]string{"MASTER"}, linkFlags(n)[2:]...)...)
		l.Qdisc = "noqueue"
		l.MinMTU, l.MaxMTU = 68, 65535
		l.LinkInfo = &ipLinkInfo{InfoKind: "bond", InfoData: bondData}
		l.NumTxQueues, l.NumRxQueues = 16, 16
	default:
		l.Flags = linkFlags(n)
		l.Qdisc = "mq"
		l.MinMTU, l.MaxMTU = 68, 9978
		l.NumTxQueues, l.NumRxQueues = 504, 63
		l.ParentBus, l.ParentDev = "pci", n.PCI
	}
	if n.Master != "" {
		l.Master = n.Master
		l.Flags = append(l.Flags[:len(l.Flags):len(l.Flags)], "SLAVE")
		l.LinkInfo = &ipLinkInfo{InfoSlaveKind: "bond", InfoSlaveData: ipBondSlave{State: "ACTIVE", MIIStatus: "UP", PermHWAddr: n.PermMAC.String()}}
	}
	for _, p := range n.Addrs {
		l.AddrInfo = append(l.AddrInfo, ipAddrOf(n, p))
	}
	return l
}

func linkFlags(n *Netdev) []string {
	var f []string
	if n.AdminUp && !n.Carrier {
		f = append(f, "NO-CARRIER")
	}
	f = append(f, "BROADCAST", "MULTICAST")
	if n.AdminUp {
		f = append(f, "UP")
		if n.Carrier {
			f = append(f, "LOWER_UP")
		}
	}
	return f
}

func ipAddrOf(n *Netdev, p netip.Prefix) ipAddr {
	a := ipAddr{Local: p.Addr().String(), PrefixLen: p.Bits(), ValidLifeTime: forever, PreferredLifeTime: forever}
	switch {
	case p.Addr().Is4():
		a.Family, a.Label = "inet", n.Name
		if n.Kind != "loopback" {
			a.Broadcast = broadcast(p)
		}
	default:
		a.Family = "inet6"
	}
	switch {
	case p.Addr().IsLoopback():
		a.Scope = "host"
	case p.Addr().IsLinkLocalUnicast():
		a.Scope = "link"
	default:
		a.Scope = "global"
	}
	return a
}

// broadcast is the IPv4 directed broadcast of a prefix.
func broadcast(p netip.Prefix) string {
	b := p.Masked().Addr().As4()
	host := 32 - p.Bits()
	for i := 3; i >= 0 && host > 0; i-- {
		n := min(host, 8)
		b[i] |= byte(1<<n - 1)
		host -= n
	}
	return netip.AddrFrom4(b).String()
}
