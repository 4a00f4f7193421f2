package linuxhost

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// MaxRails is the most GPU rails a host has: one NIC per GPU on an 8-GPU server.
const MaxRails = 8

// RailNetdev is the netdev of rail r (0-based) of a rail host: ens1np0 .. ens8np0, one
// single-port NIC per PCIe slot.
func RailNetdev(r int) string { return fmt.Sprintf("ens%dnp0", r+1) }

// RailAddr is host n's (1-based, up to 4096) address on rail r: each rail is its own routed
// segment and each host link its own /31 towards the leaf, so the host takes the odd address
// of link n-1 in 10.(100+r).0.0/16.
func RailAddr(n, r int) netip.Prefix {
	ip := 2*(n-1) + 1
	return netip.MustParsePrefix(fmt.Sprintf("10.%d.%d.%d/31", 100+r, ip>>8, ip&0xff))
}

// NewRailHost builds host number n (1..4096) of the rail-optimized GPU profile: an 8-GPU
// class server with one single-port 400 Gb/s ConnectX-7 per rail (mlx5_r = RailNetdev(r)),
// each in its own /31 (RailAddr), and /etc/nccl.conf listing every rail's HCA. Each NIC is on
// the lossless recipe as NewGPUHost's ports are; eno1 is 192.168.(100+block).x/24 with blocks
// of 250 hosts. MACs carry n in two bytes and r in one, so every identity is unique.
func NewRailHost(name string, n, rails int) *Host {
	hi, lo := byte(n>>8), byte(n)
	h := &Host{Name: name, OFED: true, MlnxQoS: true, Perftest: true, LLDPd: true, Files: map[string]string{}}
	h.Netdevs = []*Netdev{
		{Name: "lo", Index: 1, Kind: "loopback", MTU: 65536, AdminUp: true, Carrier: true,
			MAC:   net.HardwareAddr{0, 0, 0, 0, 0, 0},
			Addrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8"), netip.MustParsePrefix("::1/128")}},
		physical("eno1", 2, net.HardwareAddr{0x3c, 0xec, 0xef, 0x12 + hi, lo, 0xa0}, "0000:03:00.0", 1500,
			fmt.Sprintf("192.168.%d.%d/24", 100+(n-1)/250, (n-1)%250+1)),
	}
	hcas := make([]string, 0, rails)
	for r := range rails {
		mac := net.HardwareAddr{0x0c, 0x42, 0xa1, 0xc0 + byte(r), hi, lo}
		nd := physical(RailNetdev(r), 3+r, mac, fmt.Sprintf("0000:%02x:00.0", 0x17+0x10*r), 9000, RailAddr(n, r).String())
		nd.Eth = losslessEth(n, r)
		h.Netdevs = append(h.Netdevs, nd)
		// mlx5 derives the node GUID from the port MAC (EUI-64 with 0x03 for ff:fe); a
		// single-port card's system image GUID is its node GUID.
		g := uint64(mac[0])<<56 | uint64(mac[1])<<48 | uint64(mac[2])<<40 | 0x03<<32 |
			uint64(mac[3])<<16 | uint64(mac[4])<<8 | uint64(mac[5])
		dev := &RDMADevice{
			Name: fmt.Sprintf("mlx5_%d", r), FWVer: "28.39.1002", NodeGUID: g, SysImageGUID: g, PartID: 4129,
			BoardID: "MT_0000000838",
			Ports: []*RDMAPort{{
				Num: 1, Netdev: nd.Name, MaxMTU: 4096, Width: 4, LaneGbps: 100, GIDTableLen: 255,
				TrafficClass: "Global tclass=106", Counters: seedHWCounters(n, r),
			}},
		}
		h.RDMA = append(h.RDMA, dev)
		hcas = append(hcas, dev.Name)
	}
	h.Files["/etc/nccl.conf"] = "# NCCL over RoCE v2, one HCA per GPU rail (managed by configuration management)\n" +
		"NCCL_IB_HCA=" + strings.Join(hcas, ",") + "\n" +
		"NCCL_IB_GID_INDEX=3\n" +
		"NCCL_SOCKET_IFNAME=eno1\n"
	return h
}
