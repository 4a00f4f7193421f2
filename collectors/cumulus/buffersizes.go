package cumulus

import "github.com/roceaudit/roceaudit/topology"

// noBufferSizes is why SW-HEADROOM and SW-ECN-PFC-ORDER skip on Cumulus: NVUE's RoCE profile
// sizes the PFC headroom itself from `cable-length` and shows the RoCE pools as shares of the
// buffer (`Dynamic 100%`), not in bytes, so neither the need nor the PFC trigger can be
// recomputed and compared with the ECN threshold.
const noBufferSizes = "NVUE sizes the RoCE headroom itself from pfc cable-length and shows the RoCE pools " +
	"as shares of the buffer, not in bytes: no headroom or PFC trigger to compare"

// withBufferSizes marks the port's buffer-size facts unsupported, read from `nv show qos roce`.
func withBufferSizes(p *topology.SwitchPort) *topology.SwitchPort {
	e := topology.Evidence{Command: CmdRoCE}
	p.Headroom = topology.Unsupported(topology.Headroom{}, noBufferSizes, e)
	p.ECNOrder = topology.Unsupported(topology.ECNOrder{}, noBufferSizes, e)
	return p
}
