package linuxhost

import (
	"fmt"
	"net"
	"net/netip"
)

// RoCE netdevs of the standard GPU host profile.
const (
	Port0 = "ens1f0np0"
	Port1 = "ens1f1np1"
)

// NewGPUHost builds host number n (1..250) of the standard profile: a GPU server with one
// dual-port ConnectX-6 Dx (mlx5_0 = ens1f0np0, mlx5_1 = ens1f1np1) at 100 Gb/s, MLNX_OFED,
// mlnx-tools and perftest installed, configured to the lossless recipe: MTU 9000, trust DSCP
// with the dscp>>3 map, PFC on priority 3 only, DCBX owned by the OS with lldpad stopped (lldpd,
// which does no DCBX, runs and shows the neighbours the lab cables it to), link pause
// off, DCQCN (NP and RP) on priority 3, CNPs on DSCP 48 / priority 6, and RoCE traffic class
// 106. Addresses are 10.1.0.n/24 and 10.2.0.n/24; they are text only.
func NewGPUHost(name string, n int) *Host {
	h := &Host{Name: name, OFED: true, MlnxQoS: true, Perftest: true, LLDPd: true, Files: map[string]string{}}
	h.Netdevs = []*Netdev{
		{Name: "lo", Index: 1, Kind: "loopback", MTU: 65536, AdminUp: true, Carrier: true,
			MAC:   net.HardwareAddr{0, 0, 0, 0, 0, 0},
			Addrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8"), netip.MustParsePrefix("::1/128")}},
		physical("eno1", 2, net.HardwareAddr{0x3c, 0xec, 0xef, 0x12, byte(n), 0xa0}, "0000:03:00.0", 1500,
			fmt.Sprintf("192.168.100.%d/24", n)),
	}
	for i, netdev := range []string{Port0, Port1} {
		mac := net.HardwareAddr{0x0c, 0x42, 0xa1, 0x6b, byte(n), byte(0x4c + i)}
		nd := physical(netdev, 3+i, mac, fmt.Sprintf("0000:17:00.%d", i), 9000,
			fmt.Sprintf("10.%d.0.%d/24", i+1, n))
		nd.Eth = losslessEth(n, i)
		h.Netdevs = append(h.Netdevs, nd)

		g := uint64(mac[0])<<56 | uint64(mac[1])<<48 | uint64(mac[2])<<40 | 0x03<<32 |
			uint64(mac[3])<<16 | uint64(mac[4])<<8 | uint64(mac[5])
		dev := &RDMADevice{
			Name: fmt.Sprintf("mlx5_%d", i), FWVer: "22.39.2048", NodeGUID: g, PartID: 4125,
			BoardID: "MT_0000000359",
			Ports: []*RDMAPort{{
				Num: 1, Netdev: netdev, MaxMTU: 4096, Width: 4, LaneGbps: 25, GIDTableLen: 255,
				TrafficClass: "Global tclass=106", Counters: seedHWCounters(n, i),
			}},
		}
		dev.SysImageGUID = g&^0xff | 0x4c // both functions of the card share the image GUID
		h.RDMA = append(h.RDMA, dev)
	}
	return h
}

// physical is an up physical port with its IPv6 link-local and one IPv4 address.
func physical(name string, index int, mac net.HardwareAddr, pci string, mtu int, v4 string) *Netdev {
	ll := netip.PrefixFrom(LinkLocal(mac), 64)
	return &Netdev{Name: name, Index: index, MTU: mtu, MAC: mac, PCI: pci, AdminUp: true, Carrier: true,
		Addrs: []netip.Prefix{netip.MustParsePrefix(v4), ll}}
}

// LabCableM is the length of the lab's cables, which a tuned NIC is told (`mlnx_qos -i IF
// --cable_len 40`) as the switches are (SONiC CABLE_LENGTH 40m); MLX5DefaultCableM is what
// an untold NIC sizes its headroom for (MLX5E_DEFAULT_CABLE_LEN).
const (
	LabCableM         = 40
	MLX5DefaultCableM = 7
)

// losslessEth is the NIC configuration of the lossless recipe.
func losslessEth(n, port int) *EthPort {
	e := &EthPort{
		DCBXHost: true, Trust: "dscp", CableLen: LabCableM,
		PrioTC:        [8]int{1, 0, 2, 3, 4, 5, 6, 7}, // mlx5 ETS default: prio 0 on tc 1
		BufferSize:    [8]int{130944, 130944, 0, 0, 0, 0, 0, 0},
		Prio2Buffer:   [8]int{0, 0, 0, 1, 0, 0, 0, 0},
		MaxBufferSize: 1027200,
		ECN:           ECN{CNPDSCP: 48, CNP802pPrio: 6},
	}
	for d := range e.DSCP2Prio {
		e.DSCP2Prio[d] = d >> 3
	}
	e.PFC[3] = true
	e.ECN.NP[3], e.ECN.RP[3] = true, true
	e.Stats = seedStats(n, port)
	e.PFCPreventionMs = defaultPFCPreventionMs
	return e
}

// seedStats gives a port believable, distinct counter values: RoCE bulk on priority 3, a
// little TCP on priority 0, some PFC pauses, and no drops.
func seedStats(n, port int) map[string]uint64 {
	k := uint64(n*131 + port*17 + 7)
	roce := 912_345_678 + k*1_000_003
	tcp := 4_567_890 + k*1_009
	s := map[string]uint64{
		"rx_packets": tcp, "rx_bytes": tcp * 724, "tx_packets": tcp + k*3, "tx_bytes": (tcp + k*3) * 688,
		"rx_csum_unnecessary": tcp - k, "tx_csum_partial": tcp / 2, "tx_cqes": tcp / 3,
		"ch_events": tcp / 5, "ch_poll": tcp / 4, "ch_arm": tcp / 5,
		"rx_vport_unicast_packets": tcp, "rx_vport_unicast_bytes": tcp * 724,
		"tx_vport_unicast_packets": tcp + k*3, "tx_vport_unicast_bytes": (tcp + k*3) * 688,
		"rx_vport_multicast_packets": 1200 + k, "rx_vport_multicast_bytes": (1200 + k) * 86,
		"tx_vport_multicast_packets": 40 + k, "tx_vport_multicast_bytes": (40 + k) * 90,
		"rx_vport_broadcast_packets": 300 + k, "rx_vport_broadcast_bytes": (300 + k) * 64,
		"rx_vport_rdma_unicast_packets": roce, "rx_vport_rdma_unicast_bytes": roce * 4154,
		"tx_vport_rdma_unicast_packets": roce + k*11, "tx_vport_rdma_unicast_bytes": (roce + k*11) * 4154,
		"rx_packets_phy": roce + tcp, "tx_packets_phy": roce + tcp + k*14,
		"rx_bytes_phy": roce*4158 + tcp*728, "tx_bytes_phy": (roce+k*11)*4158 + (tcp+k*3)*692,
		"rx_multicast_phy": 1200 + k, "tx_multicast_phy": 40 + k, "rx_broadcast_phy": 300 + k,
		"rx_64_bytes_phy": 52_000 + k, "rx_65_to_127_bytes_phy": tcp / 3, "rx_128_to_255_bytes_phy": 9_000 + k,
		"rx_256_to_511_bytes_phy": 7_000 + k, "rx_512_to_1023_bytes_phy": 3_000 + k,
		"rx_1024_to_1518_bytes_phy": tcp / 2, "rx_4096_to_8191_bytes_phy": roce,
		"rx_corrected_bits_phy": 12 + k%7, "rx_pause_ctrl_phy": 1523 + k, "tx_pause_ctrl_phy": 1874 + k,
		"rx_prio0_bytes": tcp * 728, "rx_prio0_packets": tcp, "tx_prio0_bytes": (tcp + k*3) * 692,
		"tx_prio0_packets": tcp + k*3, "rx_prio3_bytes": roce * 4158, "rx_prio3_packets": roce,
		"tx_prio3_bytes": (roce + k*11) * 4158, "tx_prio3_packets": roce + k*11,
		"tx_prio6_packets": 20_000 + k, "tx_prio6_bytes": (20_000 + k) * 62,
		"rx_prio6_packets": 19_000 + k, "rx_prio6_bytes": (19_000 + k) * 62,
		"rx_prio3_pause": 1523 + k, "rx_prio3_pause_duration": (1523 + k) * 32, "tx_prio3_pause": 1874 + k,
		"tx_prio3_pause_duration": (1874 + k) * 29, "rx_prio3_pause_transition": 761 + k/2,
		"ch0_events": tcp / 10, "ch0_poll": tcp / 8, "ch0_arm": tcp / 10, "ch1_events": tcp / 10,
		"ch1_poll": tcp / 8, "ch1_arm": tcp / 10,
		"rx0_packets": tcp / 2, "rx0_bytes": tcp / 2 * 724, "rx0_csum_unnecessary": tcp / 2,
		"rx1_packets": tcp - tcp/2, "rx1_bytes": (tcp - tcp/2) * 724, "rx1_csum_unnecessary": tcp - tcp/2,
		"tx0_packets": (tcp + k*3) / 2, "tx0_bytes": (tcp + k*3) / 2 * 688, "tx0_cqes": tcp / 6,
		"tx1_packets": tcp + k*3 - (tcp+k*3)/2, "tx1_bytes": (tcp + k*3 - (tcp+k*3)/2) * 688, "tx1_cqes": tcp / 6,
	}
	return s
}

// seedHWCounters are the RDMA counters of a port that has carried RoCE traffic with some ECN
// marking and no loss.
func seedHWCounters(n, port int) map[string]uint64 {
	k := uint64(n*97 + port*13 + 3)
	return map[string]uint64{
		"rx_write_requests": 48_123_456 + k*1_001, "rx_read_requests": 1_234_567 + k*101,
		"rx_atomic_requests": 0, "np_ecn_marked_roce_packets": 3_141 + k, "np_cnp_sent": 2_718 + k,
		"rp_cnp_handled": 2_653 + k, "roce_adp_retrans": 0, "roce_slow_restart": 0,
	}
}

// AddVLAN stacks an 802.1Q VLAN on a netdev with the lower device's MTU, MAC and state, its
// own link-local address and the given IPv4/IPv6 prefixes.
func (h *Host) AddVLAN(lower string, id int, prefixes ...string) *Netdev {
	ld := h.Netdev(lower)
	if ld == nil {
		panic("AddVLAN: no netdev " + lower)
	}
	v := &Netdev{Name: fmt.Sprintf("%s.%d", lower, id), Index: h.Netdevs[len(h.Netdevs)-1].Index + 1,
		Kind: "vlan", Lower: lower, VLANID: id, MTU: ld.MTU, MAC: ld.MAC, AdminUp: true, Carrier: ld.Carrier}
	for _, p := range prefixes {
		v.Addrs = append(v.Addrs, netip.MustParsePrefix(p))
	}
	v.Addrs = append(v.Addrs, netip.PrefixFrom(LinkLocal(ld.MAC), 64))
	h.Netdevs = append(h.Netdevs, v)
	return v
}

// AddAddr adds an address to a netdev, keeping IPv4 before IPv6 as `ip addr` lists them and
// a global IPv6 address before the link-local one.
func (h *Host) AddAddr(netdev, prefix string) {
	nd := h.Netdev(netdev)
	if nd == nil {
		panic("AddAddr: no netdev " + netdev)
	}
	p := netip.MustParsePrefix(prefix)
	at := len(nd.Addrs)
	for i, a := range nd.Addrs {
		if p.Addr().Is4() && !a.Addr().Is4() || !p.Addr().IsLinkLocalUnicast() && a.Addr().IsLinkLocalUnicast() {
			at = i
			break
		}
	}
	nd.Addrs = append(nd.Addrs[:at], append([]netip.Prefix{p}, nd.Addrs[at:]...)...)
}
