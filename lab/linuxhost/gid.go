package linuxhost

import (
	"net"
	"net/netip"
)

// GID types as the kernel writes them in gid_attrs/types.
const (
	GIDTypeV1 = "IB/RoCE v1"
	GIDTypeV2 = "RoCE v2"
)

// GIDEntry is one populated slot of a port's GID table.
type GIDEntry struct {
	Index int
	Addr  netip.Addr // always the 16-byte form (IPv4 as ::ffff:a.b.c.d)
	Type  string
	Ndev  string
}

// LinkLocal is the fe80::/64 EUI-64 address of a MAC: the port's default GID and the IPv6
// link-local address the kernel gives the netdev.
func LinkLocal(mac net.HardwareAddr) netip.Addr {
	var b [16]byte
	b[0], b[1] = 0xfe, 0x80
	if len(mac) == 6 {
		b[8], b[9], b[10] = mac[0]^0x02, mac[1], mac[2]
		b[11], b[12] = 0xff, 0xfe
		b[13], b[14], b[15] = mac[3], mac[4], mac[5]
	}
	return netip.AddrFrom16(b)
}

// GIDTable derives a port's GID table the way mlx5 fills it: the default link-local GID at
// 0 (v1) and 1 (v2), then for the netdev and each upper device (VLAN), every address, IPv4
// before IPv6, each as a v1 then a v2 entry. IPv4 addresses appear IPv4-mapped. A port that
// makes v1 GIDs only gets one entry per address.
func (h *Host) GIDTable(p *RDMAPort) []GIDEntry {
	nd := h.Netdev(p.Netdev)
	if nd == nil {
		return nil
	}
	types := []string{GIDTypeV1, GIDTypeV2}
	if p.V1Only {
		types = types[:1]
	}
	var out []GIDEntry
	add := func(a netip.Addr, ndev string) {
		a = netip.AddrFrom16(a.As16())
		for _, t := range types {
			dup := false
			for _, e := range out {
				dup = dup || e.Addr == a && e.Type == t && e.Ndev == ndev
			}
			if !dup && len(out) < p.GIDTableLen {
				out = append(out, GIDEntry{Index: len(out), Addr: a, Type: t, Ndev: ndev})
			}
		}
	}
	add(LinkLocal(nd.MAC), nd.Name)
	for _, dev := range append([]*Netdev{nd}, h.uppers(nd.Name)...) {
		for _, want4 := range []bool{true, false} {
			for _, pfx := range dev.Addrs {
				if pfx.Addr().Is4() == want4 {
					add(pfx.Addr(), dev.Name)
				}
			}
		}
	}
	return out
}

// sysfsGID is the kernel's %pI6 form: eight groups of four hex digits.
func sysfsGID(a netip.Addr) string {
	const hex = "0123456789abcdef"
	b := a.As16()
	out := make([]byte, 0, 39)
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			out = append(out, ':')
		}
		out = append(out, hex[b[i]>>4], hex[b[i]&15], hex[b[i+1]>>4], hex[b[i+1]&15])
	}
	return string(out)
}

// zeroGID is what an empty slot reads as.
const zeroGID = "0000:0000:0000:0000:0000:0000:0000:0000"
