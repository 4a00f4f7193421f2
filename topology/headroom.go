package topology

// Headroom is what a port's lossless priority groups reserve for the frames still in flight
// after a pause is sent (xoff), with the inputs the vendor's own formula takes, so a check can
// recompute what the physics needs. Computed is set, with why, when the switch sizes the
// headroom itself (SONiC's dynamic buffer model, NVUE's RoCE profile): nothing is configured
// to compare.
type Headroom struct {
	PGs       map[int]PGHeadroom `json:"pgs,omitempty"`
	SpeedMbps int                `json:"speed_mbps,omitempty"`
	CableM    int                `json:"cable_m,omitempty"`
	PortMTU   int                `json:"port_mtu,omitempty"`
	ASIC      HeadroomASIC       `json:"asic"`
	Computed  string             `json:"computed,omitempty"`
}

// PGHeadroom is the buffer profile bound to one lossless priority group, in bytes.
type PGHeadroom struct {
	Profile string `json:"profile"`
	Xoff    int    `json:"xoff"`
	Xon     int    `json:"xon"`
	Size    int    `json:"size"`
}

// HeadroomASIC are the switch chip's constants the headroom formula uses, as SONiC keeps them
// in STATE_DB ASIC_TABLE (cell size in bytes, the delays in KB) and CONFIG_DB
// LOSSLESS_TRAFFIC_PATTERN (the lossless MTU and small-packet share).
type HeadroomASIC struct {
	Name                string  `json:"name"`
	CellSize            int     `json:"cell_size"`
	PipelineLatencyKB   float64 `json:"pipeline_latency_kb"`
	MACPHYDelayKB       float64 `json:"mac_phy_delay_kb"`
	PeerResponseKB      float64 `json:"peer_response_time_kb"` // used only for a speed with no pause-quanta entry
	LosslessMTU         int     `json:"lossless_mtu"`
	SmallPacketPercent  int     `json:"small_packet_percentage"`
	SharedHeadroomPool  bool    `json:"shared_headroom_pool,omitempty"`
	LosslessPatternFrom string  `json:"lossless_pattern_from,omitempty"` // "" when CONFIG_DB had the table; else the default assumed
}

// ECNOrder is what decides whether ECN marks the RoCE queue before PFC pauses its priority
// group: per queue, the ECN thresholds; per lossless priority group, what sets the occupancy
// at which it sends XOFF, in bytes. Computed is set, with why, when the switch computes the
// thresholds itself (nothing configured to compare).
type ECNOrder struct {
	Queues   map[int]ECNThreshold `json:"queues,omitempty"`
	PGs      map[int]PFCThreshold `json:"pgs,omitempty"`
	Computed string               `json:"computed,omitempty"`
}

// ECNThreshold is a queue's WRED/ECN marking range for green packets (Kmin, Kmax), in bytes.
type ECNThreshold struct {
	Profile string `json:"profile"`
	KMin    int64  `json:"kmin"`
	KMax    int64  `json:"kmax"`
}

// PFCThreshold is a lossless priority group's reserved buffer (profile size - xoff) and its
// shared-pool limit: dynamic_th (log2 alpha) over the pool when HasDynamicTh, else static_th.
type PFCThreshold struct {
	Profile      string `json:"profile"`
	Reserved     int64  `json:"reserved"`
	DynamicTh    int    `json:"dynamic_th"`
	HasDynamicTh bool   `json:"has_dynamic_th"`
	StaticTh     int64  `json:"static_th,omitempty"`
	Pool         string `json:"pool,omitempty"`
	PoolSize     int64  `json:"pool_size,omitempty"`
}
