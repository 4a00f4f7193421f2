package cumulus

import "github.com/roceaudit/roceaudit/topology"

// noBufferSizes is why SW-HEADROOM and SW-ECN-PFC-ORDER skip on a Cumulus switch in RoCE mode:
// NVUE's RoCE profile sizes the PFC headroom itself from `cable-length` and shows the RoCE
// pools as shares of the buffer (`Dynamic 50%`), not in bytes, so neither the need nor the PFC
// trigger can be recomputed and compared with the ECN threshold.
const noBufferSizes = "NVUE sizes the RoCE headroom itself from pfc cable-length and shows the RoCE pools " +
	"as shares of the buffer, not in bytes: no headroom or PFC trigger to compare"

// noBufferSizesGeneric is the reason without RoCE mode: `nv show interface <if> qos pfc` gives
// the PFC profile's port-buffer, xoff-threshold and cable-length, but not the Spectrum cell size
// and delays the headroom formula takes, nor the pool and dynamic threshold that set the PFC
// trigger, so neither check has what it compares.
const noBufferSizesGeneric = "without RoCE mode, NVUE's PFC profile shows port-buffer, xoff-threshold and cable-length " +
	"but not the ASIC's cell size and delays or the shared pool's dynamic threshold: no headroom need or PFC trigger to compare"

// withBufferSizes marks the port's buffer-size facts unsupported, with the reason that fits
// the switch's mode (read from `nv show qos roce`).
func withBufferSizes(p *topology.SwitchPort, roce *RoCE) *topology.SwitchPort {
	e, why := topology.Evidence{Command: CmdRoCE}, noBufferSizes
	if roce == nil || !roce.Enabled {
		why = noBufferSizesGeneric
	}
	p.Headroom = topology.Unsupported(topology.Headroom{}, why, e)
	p.ECNOrder = topology.Unsupported(topology.ECNOrder{}, why, e)
	return p
}
