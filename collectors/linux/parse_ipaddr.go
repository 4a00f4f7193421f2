package linux

import (
	"fmt"
	"net"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// ipLink is the part of one `ip -d -j addr show` entry roceaudit uses.
type ipLink struct {
	IfName    string       `json:"ifname"`
	MTU       *int         `json:"mtu"`
	OperState string       `json:"operstate"`
	Address   string       `json:"address"` // link-layer address: a MAC, an IPv4 (gre), 20 bytes (IPoIB)
	Link      string       `json:"link"`    // lower device of a VLAN/macvlan
	Master    string       `json:"master"`
	LinkInfo  *ipLinkInfo  `json:"linkinfo"`
	AddrInfo  []ipAddrInfo `json:"addr_info"`
}

type ipLinkInfo struct {
	Kind string      `json:"info_kind"`
	Data *ipLinkData `json:"info_data"`
}

type ipLinkData struct {
	ID *int `json:"id"`
}

type ipAddrInfo struct {
	Family string `json:"family"`
	Local  string `json:"local"`
}

// ParseIPAddr reads `ip -d -j addr show`: every netdev with MTU, state, MAC, VLAN
// kind/lower/id, master and addresses (without prefix length, link-local included, in kernel
// order).
func ParseIPAddr(jsonText string) ([]topology.Netdev, error) {
	nd, _, err := parseIPAddr(jsonText)
	return nd, err
}

// parseIPAddr is ParseIPAddr and the objects' excerpt fields, when its scan read them (nil
// otherwise: ipFieldObjects reads them then).
func parseIPAddr(jsonText string) (_ []topology.Netdev, fields []ipFields, _ error) {
	if strings.TrimSpace(jsonText) == "" {
		return nil, nil, fmt.Errorf("ip addr: empty output (expected a JSON array of interfaces)")
	}
	links, fields, err := decodeIPLinks(jsonText)
	if err != nil {
		return nil, nil, fmt.Errorf("ip addr: expected a JSON array of interfaces: %w", err)
	}
	var out []topology.Netdev
	for i, l := range links {
		if l.IfName == "" {
			// `ip -j addr` prints {} for links its address filter dropped; nothing to read there.
			continue
		}
		if l.MTU == nil {
			return nil, nil, fmt.Errorf("ip addr: entry %d (%s) has no mtu", i, l.IfName)
		}
		n := topology.Netdev{Name: l.IfName, MTU: *l.MTU, OperState: l.OperState, MAC: ethernetMAC(l.Address), Lower: l.Link, Master: l.Master}
		if l.LinkInfo != nil {
			n.Kind = l.LinkInfo.Kind
			if n.Kind == "vlan" {
				if l.LinkInfo.Data == nil || l.LinkInfo.Data.ID == nil {
					return nil, nil, fmt.Errorf("ip addr: VLAN %s has no linkinfo.info_data.id", l.IfName)
				}
				n.VLANID = *l.LinkInfo.Data.ID
			}
		}
		for _, a := range l.AddrInfo {
			if a.Local != "" && (a.Family == "inet" || a.Family == "inet6") {
				n.Addresses = append(n.Addresses, a.Local)
			}
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("ip addr: no interface with an ifname in the output")
	}
	return out, fields, nil
}

// ethernetMAC is addr when it is a 48-bit MAC, as ip prints it; other link-layer addresses
// (a tunnel's IPv4, an IPoIB hardware address) name no port a switch could see.
func ethernetMAC(addr string) string {
	if hw, err := net.ParseMAC(addr); err == nil && len(hw) == 6 {
		return addr
	}
	return ""
}
