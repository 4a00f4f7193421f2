package topology

// HostFacts are the facts of a Linux RDMA host.
type HostFacts struct {
	Ports []*HostPort `json:"ports"`
	// LLDPAgent is whether lldpad is active (it negotiates DCBX and may overwrite static settings).
	LLDPAgent Fact[bool] `json:"lldp_agent"`
	// NCCLGIDIndex is NCCL_IB_GID_INDEX from /etc/nccl.conf; Known false with no error when unset.
	NCCLGIDIndex Fact[int] `json:"nccl_gid_index"`
	// LLDP are the neighbours the host's LLDP agent (lldpd) has learned: LocalPort is the
	// host netdev, SystemName/PortID/PortDescr what the far end (a switch) advertises. Known
	// and empty when the host runs no LLDP agent: there is nothing to see, not an error.
	LLDP Fact[[]LLDPNeighbor] `json:"lldp"`
	// AppSettings are the NCCL_IB_* and UCX_IB_TRAFFIC_CLASS assignments the host's files
	// hold (/etc/nccl.conf, /etc/environment, /etc/profile.d/*.sh), only the matching lines.
	AppSettings Fact[[]AppSetting] `json:"app_settings"`
}

// Port finds the audited port on a netdev.
func (h *HostFacts) Port(netdev string) *HostPort {
	for _, p := range h.Ports {
		if p.Netdev == netdev {
			return p
		}
	}
	return nil
}

// HostPort is one RDMA port and the netdev it is bound to.
type HostPort struct {
	Netdev     string `json:"netdev"`
	RDMADevice string `json:"rdma_device,omitempty"` // empty when no RDMA device is bound
	RDMAPort   int    `json:"rdma_port,omitempty"`

	// RoCE LAG: a bond's RDMA device (mlx5_bond_N) carries the GIDs and the ToS, while DCB,
	// pause and DCQCN are per NIC. LAGSlaves, on the bond, are the slave PFs audited in their
	// own right; LAGMaster, on a slave PF, is its bond.
	LAGSlaves []string `json:"lag_slaves,omitempty"`
	LAGMaster string   `json:"lag_master,omitempty"`

	// Link is the netdev itself; Uppers are VLAN/macvlan devices stacked on it that carry
	// RoCE GIDs too (their MTU matters as much).
	Link   Fact[Netdev]   `json:"link"`
	Uppers []Netdev       `json:"uppers,omitempty"`
	State  Fact[RDMAPort] `json:"state"`
	GIDs   Fact[[]GID]    `json:"gids"`

	QoS   Fact[HostQoS] `json:"qos"`
	Pause Fact[Pause]   `json:"pause"`
	DCQCN Fact[DCQCN]   `json:"dcqcn"`
	CNP   Fact[CNP]     `json:"cnp"`
	ToS   Fact[ToS]     `json:"tos"`
	DCBX  Fact[DCBX]    `json:"dcbx"`

	// ConfiguredGIDIndexes are GID indexes that applications are told to use.
	ConfiguredGIDIndexes []ConfiguredGIDIndex `json:"configured_gid_indexes,omitempty"`

	// PFCPreventionMs is the NIC's pause-storm prevention timeout in ms (mlx5 ethtool tunable
	// pfc-prevention-tout): how long it keeps pausing before it stops sending pause.
	PFCPreventionMs Fact[int] `json:"pfc_prevention_ms"`

	// Counters are ethtool -S and RDMA hw_counters by name, kept for transfer diagnosis.
	Counters Fact[map[string]int64] `json:"counters"`

	// BindingsUnknown: the RDMA binding could not be read (rdma link and the GID table both
	// failed), so an empty RDMADevice means "not known", not "no RDMA device".
	BindingsUnknown bool `json:"bindings_unknown,omitempty"`
}

// Netdev is a Linux network device.
type Netdev struct {
	Name      string   `json:"name"`
	MTU       int      `json:"mtu"`
	OperState string   `json:"operstate"`
	Kind      string   `json:"kind,omitempty"`  // "vlan", "bond", ... ; empty for a physical port
	Lower     string   `json:"lower,omitempty"` // the device a VLAN sits on
	Master    string   `json:"master,omitempty"`
	VLANID    int      `json:"vlan_id,omitempty"`
	Addresses []string `json:"addresses,omitempty"` // IPs without prefix length
	// MAC is the link-layer address as `ip` prints it ("0c:42:a1:6b:1a:2c"); a host's stock
	// lldpd announces it as the LLDP port ID, so switches name the port by it.
	MAC string `json:"mac,omitempty"`
}

// RDMAPort is the state of an RDMA port (ibv_devinfo).
type RDMAPort struct {
	State     string  `json:"state"` // PORT_ACTIVE, PORT_DOWN, ...
	PhysState string  `json:"phys_state,omitempty"`
	LinkLayer string  `json:"link_layer"` // Ethernet | InfiniBand
	MaxMTU    int     `json:"max_mtu"`
	ActiveMTU int     `json:"active_mtu"`
	SpeedGbps float64 `json:"speed_gbps,omitempty"` // width x lane speed, when ibv_devinfo -v says
}

// GID types as the kernel writes them in gid_attrs/types.
const (
	GIDTypeV1 = "IB/RoCE v1"
	GIDTypeV2 = "RoCE v2"
)

// GID is one populated GID table entry.
type GID struct {
	Index  int    `json:"index"`
	GID    string `json:"gid"`          // as the kernel prints it
	IP     string `json:"ip,omitempty"` // the address it encodes (IPv4-mapped shown as IPv4)
	Type   string `json:"type"`         // GIDTypeV1 | GIDTypeV2
	Netdev string `json:"netdev,omitempty"`
}

// HostQoS is trust, DSCP map, PFC and ETS as mlnx_qos or dcb report them.
type HostQoS struct {
	Tool       string      `json:"tool"`  // "mlnx_qos" or "dcb"
	Trust      string      `json:"trust"` // "dscp", "pcp", ...
	DSCPToPrio map[int]int `json:"dscp_to_prio,omitempty"`
	PFC        [8]bool     `json:"pfc"` // index = priority
	// DCBXMode is "os" or "firmware" when the tool reports who owns DCB.
	DCBXMode string `json:"dcbx_mode,omitempty"`
	// TSA per traffic class and the prio->tc map, when reported.
	TCTSA  map[int]string `json:"tc_tsa,omitempty"`
	PrioTC map[int]int    `json:"prio_tc,omitempty"`
	// CableLenM is the cable length the NIC sizes its own receive headroom for (mlnx_qos
	// "Cable len"); 0 when the tool does not say.
	CableLenM int `json:"cable_len_m,omitempty"`
}

// Pause is 802.3x link-level pause (ethtool -a).
type Pause struct {
	Autoneg bool `json:"autoneg"`
	RX      bool `json:"rx"`
	TX      bool `json:"tx"`
}

// DCQCN is the per-priority ECN notification point / reaction point enablement.
type DCQCN struct {
	NP map[int]bool `json:"np"`
	RP map[int]bool `json:"rp"`
}

// CNP is how the NIC sends congestion notification packets.
type CNP struct {
	DSCP     int  `json:"dscp"`
	Priority int  `json:"priority"`
	HasPrio  bool `json:"has_priority"` // not every NIC exposes it
}

// ToS is the default RoCE ToS byte. Unreadable is set when the only source needs a write
// (rdma_cm configfs directory not present); that case is a warning, not an error.
type ToS struct {
	Value      int    `json:"value"`
	Set        bool   `json:"set"` // false: no default configured (traffic uses ToS 0)
	From       string `json:"from,omitempty"`
	Unreadable bool   `json:"unreadable,omitempty"`
}

// DCBX is who configures DCB on the port: "static" (OS, no LLDP agent) or "dcbx" (firmware or
// an LLDP agent negotiating with the switch).
type DCBX struct {
	Mode   string `json:"mode"`
	Detail string `json:"detail"`
}

// ConfiguredGIDIndex is a GID index some configuration tells applications to use.
type ConfiguredGIDIndex struct {
	Index  int    `json:"index"`
	Source string `json:"source"` // "inventory", "/etc/nccl.conf"
}
