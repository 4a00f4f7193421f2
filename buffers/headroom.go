// Package buffers is the switch buffer arithmetic the checks judge by and the remediations
// size their fixes with: SONiC's headroom formula and the PFC trigger of a priority group.
package buffers

import (
	"fmt"
	"math"

	"github.com/roceaudit/roceaudit/topology"
)

// HeadroomSource is where the headroom arithmetic comes from; the check's Sources and
// fixtures/README.md cite the same file and commit.
const HeadroomSource = "SONiC headroom plugin sonic-net/sonic-swss cfgmgr/buffer_headroom_mellanox.lua " +
	"(commit 18913fa357264149fa4d4ba93638f58e1c8ad89b)"

// pauseQuanta is the pause quanta the peer may still send after it receives a pause, per
// operating speed in Mb/s (IEEE 802.3 31B.3.7), as SONiC's headroom plugin tabulates it.
var pauseQuanta = map[int]float64{
	800000: 905, 400000: 905, 200000: 453, 100000: 394, 50000: 147,
	40000: 118, 25000: 80, 10000: 67, 1000: 2, 100: 1,
}

// speedOfLight in a cable, m/s, and the smallest frame, bytes, as the plugin takes them.
const (
	speedOfLight = 198000000.0
	minFrame     = 64.0
)

// Need is what the formula requires of one lossless priority group, and its terms.
type Need struct {
	Xoff, Xon, Size int
	// CableBytes is what the cable holds both ways; PeerBytes what the peer sends before it
	// acts on a pause; Occupancy the cell-occupancy factor applied to both.
	CableBytes, PeerBytes, Occupancy float64
}

// Required is SONiC's Mellanox headroom arithmetic for a port, gearbox-free and not
// 8-lane (the 8-lane adjustment changes xon and size, never xoff):
//
//	cable      = 2 x cable_length x speed x 1e9 / 1.98e8 / (8 x 1024)
//	peer       = pause_quanta(speed) x 512 / 8     (else ASIC peer_response_time KB x 1024)
//	occupancy  = (100 - p + p x w) / 100, w = cell/64 if cell > 128 else 2 x cell / (1 + cell)
//	xoff       = ceil1K(lossless_mtu + (port_mtu + cable + mac_phy_delay + peer) x occupancy)
//	xon        = ceil1K(pipeline_latency)
//	size       = xon with a shared headroom pool, else xoff + xon
//
// with p the small-packet percentage and every delay of the ASIC table in KB.
func Required(h topology.Headroom) (Need, error) {
	a := h.ASIC
	switch {
	case h.SpeedMbps <= 0:
		return Need{}, fmt.Errorf("no port speed")
	case h.PortMTU <= 0:
		return Need{}, fmt.Errorf("no port MTU")
	case a.CellSize <= 0:
		return Need{}, fmt.Errorf("no ASIC cell size")
	}
	peer := a.PeerResponseKB * 1024
	if q, ok := pauseQuanta[h.SpeedMbps]; ok {
		peer = q * 512 / 8
	} else if peer <= 0 {
		return Need{}, fmt.Errorf("no pause quanta for %d Mb/s and no ASIC peer response time", h.SpeedMbps)
	}
	return With(h, peer), nil
}

// With is the arithmetic with the peer response (bytes) already chosen.
func With(h topology.Headroom, peer float64) Need {
	a := h.ASIC
	cell := float64(a.CellSize)
	worst := 2 * cell / (1 + cell)
	if cell > 2*minFrame {
		worst = cell / minFrame
	}
	p := float64(a.SmallPacketPercent)
	occ := (100 - p + p*worst) / 100
	cable := 2 * float64(h.CableM) * float64(h.SpeedMbps) * 1e9 / speedOfLight / (8 * 1024)
	delay := float64(h.PortMTU) + cable + a.MACPHYDelayKB*1024 + peer
	xoff := ceil1K(float64(a.LosslessMTU) + delay*occ)
	xon := ceil1K(a.PipelineLatencyKB * 1024)
	size := xoff + xon
	if a.SharedHeadroomPool {
		size = xon
	}
	return Need{Xoff: xoff, Xon: xon, Size: size, CableBytes: cable, PeerBytes: peer, Occupancy: occ}
}

// ceil1K rounds up to a whole KB, as the plugin does.
func ceil1K(v float64) int { return int(math.Ceil(v/1024)) * 1024 }
