package rdmaemu

// A slow receiver (linuxhost.EthPort.SlowReceiverShare) cannot drain its receive buffer for a
// share of the run: its NIC sends PFC pause for that long on the flow's priority, the run's
// bandwidth falls by that share, and the pause spreads upstream through every lossless cable
// (each switch buffers part of it, so the paused time halves per hop toward the sender), the
// congestion-spreading pattern of a lossless fabric (culprit: the receiver; victims: the ports
// upstream). Its buffer passes the 85% mark (mlx5 rx_buffer_passed_thres_phy) as it does.

import "math"

// maxStall bounds the share a receiver may stall: a run still moves data.
const maxStall = 0.9

// pauseRefreshUS is how often a pausing port re-sends pause: half of 65535 quanta (512 bit
// times each) at 100 Gb/s, so the pause never expires while the buffer stays full.
const pauseRefreshUS = 65535 * 512 / 100e3 / 2

// receiverStall is the share of the run the receiving side cannot drain.
func receiverStall(s side) float64 {
	return math.Min(math.Max(s.eth.SlowReceiverShare, 0), maxStall)
}

// slowReceiverPauses adds a slow receiver's pause: its paused time on the last cable, halved
// per lossless cable upstream, counted by both ends of each cable in the same frames.
func slowReceiverPauses(cs *counterSet, f *flow, s side, t traffic) {
	share := receiverStall(s)
	if share == 0 || len(f.links) == 0 {
		return
	}
	us := share * t.seconds * 1e6
	rcv := f.links[len(f.links)-1].rx
	cs.stat(rcv.at, uint64(us/pauseRefreshUS/4)+1, "rx_buffer_passed_thres_phy")
	for i := len(f.links) - 1; i >= 0 && f.links[i].lossless() && us >= pauseRefreshUS; i-- {
		l := f.links[i]
		cs.pause(l, uint64(us/pauseRefreshUS), uint64(us))
		us /= 2
	}
}
