package soniccheck

import (
	"github.com/roceaudit/roceaudit/lab/switchstate"
	"github.com/roceaudit/roceaudit/topology"
)

// spectrum3 are SONiC's ASIC_TABLE constants for the lab's Mellanox SN4xxx models, with the
// LOSSLESS_TRAFFIC_PATTERN defaults a traditional-model switch (no such table) is read with.
var spectrum3 = topology.HeadroomASIC{Name: "MELLANOX-SPECTRUM-3", CellSize: 144, PipelineLatencyKB: 18, MACPHYDelayKB: 0.8,
	PeerResponseKB: 3.8, LosslessMTU: 1024, SmallPacketPercent: 100,
	LosslessPatternFrom: "no LOSSLESS_TRAFFIC_PATTERN: mtu 1024, small_packet_percentage 100 assumed"}

// expectedHeadroom: every lossless PG binds the port's profile; the formula's inputs are the
// port's speed (Mb/s), MTU and CABLE_LENGTH, read only when some PG is lossless.
func expectedHeadroom(p *switchstate.Port, pgs []int, profile string) topology.Headroom {
	h := topology.Headroom{PGs: map[int]topology.PGHeadroom{}, SpeedMbps: p.Speed * 1000, PortMTU: p.MTU, ASIC: spectrum3}
	for _, pg := range pgs {
		h.PGs[pg] = topology.PGHeadroom{Profile: profile, Xoff: p.Headroom.Xoff, Xon: p.Headroom.Xon, Size: p.Headroom.Size}
		h.CableM = p.CableM
	}
	return h
}

// expectedECNOrder: each ECN queue's thresholds; each lossless PG's reserve (size - xoff),
// dynamic threshold and the ingress lossless pool the lab sizes at 12766208 bytes.
func expectedECNOrder(p *switchstate.Port, pgs []int, profile string) topology.ECNOrder {
	o := topology.ECNOrder{Queues: map[int]topology.ECNThreshold{}, PGs: map[int]topology.PFCThreshold{}}
	for q, on := range p.ECN {
		if on {
			o.Queues[q] = topology.ECNThreshold{KMin: int64(p.ECNMin), KMax: int64(p.ECNMax)}
		}
	}
	for _, pg := range pgs {
		o.PGs[pg] = topology.PFCThreshold{Profile: profile, Reserved: int64(max(p.Headroom.Size-p.Headroom.Xoff, 0)),
			DynamicTh: p.Headroom.DynamicTh, HasDynamicTh: true, Pool: "ingress_lossless_pool", PoolSize: 12766208}
	}
	return o
}
