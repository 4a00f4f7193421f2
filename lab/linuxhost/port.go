package linuxhost

import "fmt"

// roceOverhead is what RoCE headers take from the netdev MTU (GRH 40 + UDP 8 + BTH 12 +
// XRC ext 4 + AtomicETH 28 + ICRC 4), kernel include/rdma/ib_addr.h iboe_get_mtu().
const roceOverhead = 96

// ibMTUs are the IB MTUs with their enum ibv_mtu codes.
var ibMTUs = []struct{ bytes, code int }{{4096, 5}, {2048, 4}, {1024, 3}, {512, 2}, {256, 1}}

// ibMTUCode is the ibv_mtu enum value of an IB MTU in bytes, 0 when it is not one.
func ibMTUCode(bytes int) int {
	for _, m := range ibMTUs {
		if m.bytes == bytes {
			return m.code
		}
	}
	return 0
}

// ActiveMTU follows the kernel rule: the largest IB MTU that fits in netdevMTU minus the RoCE
// overhead, capped by the port's max_mtu. It is always derived, never stored.
func ActiveMTU(netdevMTU, maxMTU int) int {
	for _, m := range ibMTUs {
		if m.bytes <= maxMTU && m.bytes <= netdevMTU-roceOverhead {
			return m.bytes
		}
	}
	return 0
}

// portView is everything a port shows, derived from the port and its netdev.
type portView struct {
	state, physState         string // ibv_devinfo names
	stateCode, physStateCode int
	rdmaState, rdmaPhys      string // rdma link names
	sysState, sysPhys        string // sysfs state / phys_state
	activeMTU                int
	widthCode, speedCode     int
	speedText                string
	rateText                 string // sysfs rate
}

// laneSpeeds maps a lane speed to its ibv_port_attr.active_speed code and text.
var laneSpeeds = []struct {
	gbps float64
	code int
	text string
	ib   string // IB rate name used in sysfs rate
}{
	{2.5, 1, "2.5 Gbps", "SDR"}, {5, 2, "5.0 Gbps", "DDR"}, {10, 4, "10.0 Gbps", "QDR"},
	{14, 16, "14.0 Gbps", "FDR"}, {25, 32, "25.0 Gbps", "EDR"}, {50, 64, "50.0 Gbps", "HDR"},
	{100, 128, "100.0 Gbps", "NDR"},
}

// widthCodes maps a lane count to its ibv_port_attr.active_width code.
var widthCodes = map[int]int{1: 1, 4: 2, 8: 4, 12: 8, 2: 16}

func (h *Host) view(p *RDMAPort) portView {
	nd := h.Netdev(p.Netdev)
	mtu := 0
	up := false
	if nd != nil {
		mtu = nd.MTU
		up = nd.AdminUp && nd.Carrier
	}
	v := portView{activeMTU: ActiveMTU(mtu, p.MaxMTU)}
	switch {
	case p.Disabled:
		v.state, v.stateCode, v.physState, v.physStateCode = "PORT_DOWN", 1, "DISABLED", 3
		v.rdmaState, v.rdmaPhys, v.sysState, v.sysPhys = "DOWN", "DISABLED", "1: DOWN", "3: Disabled"
	case !up:
		v.state, v.stateCode, v.physState, v.physStateCode = "PORT_DOWN", 1, "POLLING", 2
		v.rdmaState, v.rdmaPhys, v.sysState, v.sysPhys = "DOWN", "POLLING", "1: DOWN", "2: Polling"
	default:
		v.state, v.stateCode, v.physState, v.physStateCode = "PORT_ACTIVE", 4, "LINK_UP", 5
		v.rdmaState, v.rdmaPhys, v.sysState, v.sysPhys = "ACTIVE", "LINK_UP", "4: ACTIVE", "5: LinkUp"
	}
	// A port without link reports the IB defaults (1X, 2.5 Gbps), as mlx5 does.
	width, lane := 1, laneSpeeds[0]
	if v.stateCode == 4 {
		width = p.Width
		for _, s := range laneSpeeds {
			if s.gbps == p.LaneGbps {
				lane = s
			}
		}
	}
	v.widthCode, v.speedCode, v.speedText = widthCodes[width], lane.code, lane.text
	v.rateText = formatRate(float64(width)*lane.gbps, width, lane.ib)
	return v
}

// formatRate is the sysfs rate text, e.g. "100 Gb/sec (4X EDR)".
func formatRate(gbps float64, width int, ib string) string {
	return fmt.Sprintf("%g Gb/sec (%dX %s)", gbps, width, ib)
}
