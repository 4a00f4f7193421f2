package topology

// SwitchFacts are the facts of a data-center switch, per port.
type SwitchFacts struct {
	// NOS names the operating system and version as the switch reports it.
	NOS   string        `json:"nos,omitempty"`
	Ports []*SwitchPort `json:"ports"`
	// LLDP neighbours seen on every port (for link discovery).
	LLDP Fact[[]LLDPNeighbor] `json:"lldp"`
}

// Port finds a port by its name as the switch spells it.
func (s *SwitchFacts) Port(name string) *SwitchPort {
	for _, p := range s.Ports {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// SwitchPort is the lossless-relevant state of one switch port. Maps are keyed by number:
// DSCP (0..63), traffic class, priority (0..7) or queue.
type SwitchPort struct {
	Name string `json:"name"`
	// Aliases are other names the NOS announces the port by (SONiC's PORT alias, "etp1", is
	// its LLDP port ID), so a neighbour that names the port by one is matched to it.
	Aliases []string `json:"aliases,omitempty"`
	// Speed is the port's speed in Gb/s as the NOS shows it; Unknown when it shows none (a
	// port that is down may not), never 0.
	Speed Fact[float64] `json:"speed_gbps"`

	MTU       Fact[MTU]         `json:"mtu"`
	Trust     Fact[string]      `json:"trust"`       // "dscp", "pcp", "both", "none"
	DSCPToTC  Fact[map[int]int] `json:"dscp_to_tc"`  // DSCP -> traffic class (SONiC TC, Cumulus switch-priority, EOS traffic-class, NX-OS qos-group)
	TCToQueue Fact[map[int]int] `json:"tc_to_queue"` // identity where the NOS does not separate them
	// PriorityClass maps an 802.1p priority to the traffic class PFC on it protects, where the
	// NOS numbers the two apart (NX-OS: `pause pfc-cos 3` in network-qos class c-8q-nq5 makes
	// priority 3 qos-group 5's). Nil where the class carrying a priority is numbered as it is.
	PriorityClass map[int]int `json:"priority_class,omitempty"`
	// DSCPMap names the DSCP map the port binds, where the NOS names maps (SONiC's
	// PORT_QOS_MAP|<port>.dscp_to_tc_map); "" when it binds none or maps have no names.
	DSCPMap string `json:"dscp_map,omitempty"`

	PFC         Fact[SwitchPFC]    `json:"pfc"`
	PFCWatchdog Fact[map[int]bool] `json:"pfc_watchdog"` // priority -> watchdog on
	// WatchdogTimers are the watchdog's timers on the port, where the NOS states them; a
	// platform whose timers are not read says why (Unsupported).
	WatchdogTimers Fact[WatchdogTimers] `json:"pfc_watchdog_timers"`
	Pause          Fact[Pause]          `json:"pause"`     // 802.3x; Autoneg unused
	ECN            Fact[map[int]bool]   `json:"ecn"`       // queue -> ECN marking on
	Scheduler      Fact[map[int]string] `json:"scheduler"` // queue -> "strict" | "dwrr" | "wrr" | "ets"
	DCBX           Fact[DCBX]           `json:"dcbx"`
	Buffer         Fact[Buffer]         `json:"buffer"`
	// Headroom and ECNOrder are the buffer sizes SW-HEADROOM and SW-ECN-PFC-ORDER judge.
	Headroom Fact[Headroom] `json:"headroom"`
	ECNOrder Fact[ECNOrder] `json:"ecn_order"`

	Counters Fact[map[string]int64] `json:"counters"`
}

// WatchdogTimers are a port's PFC watchdog timers in ms: how long a lossless queue stays
// paused without draining before the watchdog acts (Detection), and how long it acts before it
// restores the queue (Restoration, 0 when not stated); Action is drop, forward or alert.
type WatchdogTimers struct {
	DetectionMs   int    `json:"detection_ms"`
	RestorationMs int    `json:"restoration_ms,omitempty"`
	Action        string `json:"action,omitempty"`
}

// MTU is a port MTU as configured and normalized to a frame-MTU class for comparison.
type MTU struct {
	Configured int    `json:"configured"`
	Kind       string `json:"kind"`       // "frame" (SONiC, Cumulus, NX-OS) or "ip" (EOS)
	Normalized int    `json:"normalized"` // comparable with recipe.switch_mtu
}

// SwitchPFC is the PFC state of a port. RX and TX differ when PFC is asymmetric.
type SwitchPFC struct {
	RX   []int  `json:"rx"`             // priorities honoured when received
	TX   []int  `json:"tx"`             // priorities for which pause frames are generated
	Mode string `json:"mode,omitempty"` // NX-OS "on" | "auto" (DCBX-negotiated); empty elsewhere
	// Oper is the operational state of a negotiated (mode auto) port as the switch shows it:
	// "on" (RX and TX are then the negotiated priorities) or "off"; "" when it was not read.
	Oper string `json:"oper,omitempty"`
}

// Buffer is the lossless buffer profile bound to the RoCE priority group, where readable.
type Buffer struct {
	LosslessPGs []int  `json:"lossless_pgs"`
	Profile     string `json:"profile,omitempty"`
	// PGs says, per priority group the configuration binds, which profile it has and what it
	// is ("pg_lossless_100000_5m_profile: lossless, xoff=..."), so a check can judge one PG alone.
	PGs map[int]string `json:"pgs,omitempty"`
	// Unreadable are the priority groups whose profile could not be resolved (a reference to a
	// profile that does not exist); PGs says why.
	Unreadable []int `json:"unreadable_pgs,omitempty"`
}

// LLDPNeighbor is one LLDP neighbour seen on a local port.
type LLDPNeighbor struct {
	LocalPort   string `json:"local_port"`
	SystemName  string `json:"system_name"`
	PortID      string `json:"port_id"`
	PortDescr   string `json:"port_descr,omitempty"`
	ChassisID   string `json:"chassis_id,omitempty"`
	MgmtAddress string `json:"mgmt_address,omitempty"`
}

// ClassOf is the traffic class that carries priority prio on p: the class PFC on prio
// protects. NOSes that number classes apart from priorities say so in PriorityClass (NX-OS
// qos-groups); elsewhere the class is the priority.
func (p *SwitchPort) ClassOf(prio int) int {
	if c, ok := p.PriorityClass[prio]; ok {
		return c
	}
	return prio
}

// QueueOf is the egress queue of traffic class tc (tc itself when the map is unknown).
func (p *SwitchPort) QueueOf(tc int) int {
	if p.TCToQueue.Usable() {
		if q, ok := p.TCToQueue.Value[tc]; ok {
			return q
		}
	}
	return tc
}
