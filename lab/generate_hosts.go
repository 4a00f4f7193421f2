package lab

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// profileHosts is how many hosts linuxhost.NewGPUHost numbers (1..250).
const profileHosts = 250

// hosts are the generated GPU hosts: the standard profile (linuxhost.NewGPUHost), healthy,
// renumbered so that addresses and identities stay unique past the profile's 250 hosts.
func (g Generate) hosts() []*device {
	if g.rails() > 1 {
		return g.railHosts()
	}
	out := make([]*device, 0, g.Hosts)
	for h := 1; h <= g.Hosts; h++ {
		name := g.hostName(h)
		host := linuxhost.NewGPUHost(name, (h-1)%profileHosts+1)
		renumber(host, h)
		out = append(out, &device{name: name, platform: "linux", dev: host, host: host})
	}
	return out
}

// renumber gives host h (1-based, up to MaxGenerateHosts) its addresses and identities,
// equal to NewGPUHost's for h <= 250: each block of 250 hosts has its own /24 per rail,
// 10.<rail>.<block>.<1..250> on the RoCE ports and 192.168.<100+block>.<1..250> on eno1, and
// the MACs carry h in two bytes, so the link-local addresses, default GIDs and node GUIDs
// differ too. The GID tables follow on their own: the host derives them from these.
func renumber(host *linuxhost.Host, h int) {
	block, n := (h-1)/profileHosts, (h-1)%profileHosts+1
	hi, lo := byte(h>>8), byte(h)
	set := func(netdev string, mac net.HardwareAddr, v4 string) {
		nd := host.Netdev(netdev)
		nd.MAC = mac
		nd.Addrs = []netip.Prefix{netip.MustParsePrefix(v4), netip.PrefixFrom(linuxhost.LinkLocal(mac), 64)}
	}
	set("eno1", net.HardwareAddr{0x3c, 0xec, 0xef, 0x12 + hi, lo, 0xa0}, fmt.Sprintf("192.168.%d.%d/24", 100+block, n))
	for i, netdev := range hostRails {
		mac := net.HardwareAddr{0x0c, 0x42, 0xa1, 0x6b + hi, lo, byte(0x4c + i)}
		set(netdev, mac, fmt.Sprintf("10.%d.%d.%d/24", i+1, block, n))
		// mlx5 derives the node GUID from the port MAC (EUI-64 with 0x03 for ff:fe); both
		// functions of the card share the system image GUID.
		guid := uint64(mac[0])<<56 | uint64(mac[1])<<48 | uint64(mac[2])<<40 | 0x03<<32 |
			uint64(mac[3])<<16 | uint64(mac[4])<<8 | uint64(mac[5])
		dev, _ := host.Port(netdev)
		dev.NodeGUID, dev.SysImageGUID = guid, guid&^0xff|0x4c
	}
}
