// Package linuxhost emulates a Linux RDMA host for the built-in lab. A Host is a small state
// (netdevs, RDMA ports, QoS, counters); every command answer is rendered from that state in
// the real tool's output format, so a scenario changes one field and every tool that would
// show it changes with it. Nothing is ever executed.
package linuxhost

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Host is one emulated Linux RDMA host.
type Host struct {
	Name    string
	Netdevs []*Netdev     // in ifindex order
	RDMA    []*RDMADevice // in ibv_devinfo order

	// Files are plain files outside sysfs by path (e.g. /etc/nccl.conf); absent means missing.
	Files map[string]string

	LLDPadActive bool // systemctl is-active lldpad; pgrep finds its process
	// NoSystemd is a host whose PID 1 is not systemd (a container, a minimal install):
	// systemctl cannot operate, the process table still tells what runs.
	NoSystemd bool
	// LLDPd is lldpd installed and running (lldpcli answers); false: lldpcli is not installed.
	LLDPd bool
	// LLDPNeighbors are what lldpd has learned, by netdev. A netdev without carrier shows none,
	// whatever is listed here.
	LLDPNeighbors map[string][]LLDPNeighbor
	// FirewallDrops: a host firewall silently drops perftest's setup channel, so a client
	// connecting to this host hangs until coreutils timeout ends it.
	FirewallDrops bool
	MlnxQoS       bool // mlnx-tools installed (mlnx_qos); iproute2 dcb is always there
	// OFED is the MLNX_OFED/DOCA driver: it adds the ecn/ and tc/ sysfs files that the inbox
	// mlx5 driver does not have.
	OFED bool
	// Perftest is the perftest package (ib_write_bw, ib_write_lat). The host itself never reads
	// it: the Extension that emulates perftest does.
	Perftest bool

	// Extension answers the command lines outside the host's own command set (perftest and
	// its port check, for example) before the host says "command not found"; ok false means it
	// does not know the command either. It runs without the state lock, since it may block (a
	// perftest server waits for its client) and change the state through Update meanwhile.
	// Set it before the host serves.
	Extension func(ctx context.Context, cmd string) (stdout, stderr string, exit int, ok bool)

	mu sync.RWMutex
}

// Update changes the state under the host's lock, so a running lab can evolve (counters during
// a transfer, for example) while sessions read it.
func (h *Host) Update(fn func(h *Host)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fn(h)
}

// Read gives fn a consistent view of the state (shared with concurrent readers).
func (h *Host) Read(fn func(h *Host)) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	fn(h)
}

// Netdev is a Linux network device.
type Netdev struct {
	Name   string
	Index  int
	Kind   string // "" for a physical port, "vlan", "bond", "loopback"
	Master string // the bond this port is enslaved to
	// PermMAC is a bond slave's own MAC (ip's perm_hwaddr) while MAC shows the bond's.
	PermMAC net.HardwareAddr
	Lower   string // the device a VLAN sits on
	VLANID  int
	MTU     int
	MAC     net.HardwareAddr
	PCI     string // parentdev, physical ports only
	AdminUp bool
	Carrier bool
	Addrs   []netip.Prefix // in the order `ip addr` lists them (IPv4 first, then IPv6)

	// Eth is the NIC side of a physical RDMA port (QoS, pause, ECN, counters); nil otherwise.
	Eth *EthPort
}

// OperState is what `ip link` reports, derived from admin state and carrier.
func (n *Netdev) OperState() string {
	switch {
	case n.Kind == "loopback":
		return "UNKNOWN"
	case !n.AdminUp:
		return "DOWN"
	case !n.Carrier && n.Kind == "vlan":
		return "LOWERLAYERDOWN"
	case !n.Carrier:
		return "DOWN"
	}
	return "UP"
}

// LLDPNeighbor is what the far end of a netdev advertises over LLDP, as lldpd keeps it.
// Subtypes use lldpd's names: "mac", "ifname", "local", ...
type LLDPNeighbor struct {
	ChassisIDType, ChassisID string
	SysName, SysDescr        string
	MgmtIP                   string // "" when none is advertised
	Capabilities             []LLDPCapability
	PortIDType, PortID       string
	PortDescr                string
	TTL                      int           // seconds
	Age                      time.Duration // since lldpd learned the neighbour
}

// LLDPCapability is one system capability the neighbour has, and whether it is enabled.
type LLDPCapability struct {
	Type    string // "Bridge", "Router", "Station", ...
	Enabled bool
}

// EthPort is the DCB / pause / DCQCN configuration and the counters of a NIC port.
type EthPort struct {
	DCBXHost  bool   // DCBX owned by the OS (mlnx_qos "OS controlled", dcb "host"); false: firmware
	Trust     string // "dscp" or "pcp"
	DSCP2Prio [64]int
	PFC       [8]bool
	CableLen  int
	PrioTC    [8]int // priority -> traffic class

	// Receive buffers (mlnx_qos "Receive buffer size" and the PFC "buffer" row).
	BufferSize    [8]int
	Prio2Buffer   [8]int
	MaxBufferSize int

	PauseAutoneg, PauseRX, PauseTX bool

	ECN ECN

	// Stats are ethtool -S values by name; a counter that is shown but not here reads 0.
	Stats map[string]uint64

	// PFCPreventionMs is the pause-storm prevention timeout ethtool's pfc-prevention-tout
	// tunable shows (render_tunable.go); 0 is prevention disabled.
	PFCPreventionMs int

	// SlowReceiverShare is the share of a transfer this NIC cannot drain what it receives (a
	// slow receiver: PCIe, host memory, a busy core) and pauses its link for it (lab/rdmaemu
	// slowrx.go); 0 for a NIC that keeps up.
	SlowReceiverShare float64
}

// ECN is the MLNX_OFED DCQCN configuration (/sys/class/net/IF/ecn).
type ECN struct {
	NP, RP      [8]bool // notification / reaction point enable per priority
	CNPDSCP     int
	CNP802pPrio int
}

// RDMADevice is one RDMA device (an mlx5 function).
type RDMADevice struct {
	Name         string
	FWVer        string
	NodeGUID     uint64
	SysImageGUID uint64
	PartID       int // vendor_part_id, e.g. 4125 for ConnectX-6 Dx
	BoardID      string
	Ports        []*RDMAPort
}

// RDMAPort is one port of an RDMA device, bound to a netdev.
type RDMAPort struct {
	Num    int
	Netdev string
	// Disabled is a port administratively down (PORT_DOWN, phys_state DISABLED).
	Disabled bool
	MaxMTU   int // IB MTU in bytes: 256..4096
	Width    int // lanes: 1, 2, 4, 8, 12
	LaneGbps float64
	// V1Only is a port that creates RoCE v1 GIDs only (no RoCE v2 entries at all).
	V1Only      bool
	GIDTableLen int

	// TrafficClass is the content of tc/PORT/traffic_class on OFED ("" reads as an empty file).
	TrafficClass string
	// DefaultRoCEToS is rdma_cm's default_roce_tos; nil when the configfs directory was never
	// created (the usual case: creating it is a write).
	DefaultRoCEToS *int

	// Counters are hw_counters values by name; a counter that exists but is not here reads 0.
	Counters map[string]uint64
}

// Netdev finds a netdev by name.
func (h *Host) Netdev(name string) *Netdev {
	for _, n := range h.Netdevs {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// Port finds the RDMA port bound to a netdev, with its device.
func (h *Host) Port(netdev string) (*RDMADevice, *RDMAPort) {
	for _, d := range h.RDMA {
		for _, p := range d.Ports {
			if p.Netdev == netdev {
				return d, p
			}
		}
	}
	return nil, nil
}

// uppers lists the devices stacked on a netdev (VLANs), in ifindex order.
func (h *Host) uppers(name string) []*Netdev {
	var out []*Netdev
	for _, n := range h.Netdevs {
		if n.Lower == name {
			out = append(out, n)
		}
	}
	return out
}
