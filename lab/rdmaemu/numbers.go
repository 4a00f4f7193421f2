package rdmaemu

import (
	"fmt"
	"hash/fnv"
)

// Every number a run prints comes from a hash of the run's identity (the pair and the TCP
// port), so the same transfer on the same lab prints the same results every time.

type seed uint64

func newSeed(parts ...any) seed {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return seed(h.Sum64())
}

// frac is a value in [0, 1) for one purpose of the run.
func (s seed) frac(purpose string) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", uint64(s), purpose)
	return float64(h.Sum64()>>11) / (1 << 53)
}

// pick is an integer in [lo, hi) for one purpose.
func (s seed) pick(purpose string, lo, hi uint64) uint64 {
	return lo + uint64(s.frac(purpose)*float64(hi-lo))
}

// Shares of the slowest link a write_bw run reaches: a lossless path carries 96-97% (RoCE
// headers and ACKs take the rest at 4096-byte MTU); a lossy one collapses to 15-25% under
// go-back-N retransmissions and retransmission timeouts.
const (
	losslessShareLo, losslessShareHi = 0.960, 0.970
	lossyShareLo, lossyShareHi       = 0.15, 0.25
	perPacketHeaders                 = 58 // Ethernet+IPv4+UDP+BTH+ICRC+FCS of a RoCE v2 write packet
)

// bandwidthGbps is the average the run reports, in Gb/s.
func bandwidthGbps(f *flow, s seed) float64 {
	eff := float64(f.mtu) / float64(f.mtu+perPacketHeaders) / (4096.0 / (4096 + perPacketHeaders))
	share := losslessShareLo + (losslessShareHi-losslessShareLo)*s.frac("bw")
	if f.lossy() {
		share = lossyShareLo + (lossyShareHi-lossyShareLo)*s.frac("bw")
	}
	return f.slowestGbps * share * eff
}

// latencyUS is one write_lat result row in microseconds: about 2.1 typical and 3.4 at the
// 99th percentile across three switches when lossless; a lossy path adds retransmission
// timeouts to the tail (tens of microseconds at p99, milliseconds at the maximum).
type latencyUS struct{ min, max, typical, avg, stdev, p99, p999 float64 }

func latencyOf(f *flow, size int, s seed) latencyUS {
	serialization := float64(size) * 8 / (f.slowestGbps * 1000)
	t := 1.60 + 0.17*float64(len(f.hops)) + serialization + 0.04*s.frac("typ")
	l := latencyUS{typical: t, min: t - 0.14 - 0.03*s.frac("min"), avg: t + 0.05, stdev: 0.22 + 0.05*s.frac("sd"),
		p99: t * (1.6 + 0.05*s.frac("p99")), p999: t * (3.5 + 0.4*s.frac("p999")), max: t*5 + 3*s.frac("max")}
	if f.lossy() {
		l.typical += 0.35
		l.avg = l.typical + 8 + 3*s.frac("avg")
		l.stdev = 45 + 10*s.frac("sd")
		l.p99 = 40 + 10*s.frac("p99")
		l.p999 = 380 + 60*s.frac("p999")
		l.max = 4100 + 500*s.frac("max")
	}
	return l
}

// qp is the queue pair one side prints in its "address" line.
type qp struct {
	qpn, psn, rkey uint64
	vaddr          uint64
}

func qpOf(s seed, who string) qp {
	return qp{qpn: s.pick(who+"qpn", 0x100, 0x1000), psn: s.pick(who+"psn", 0, 1<<24),
		rkey: s.pick(who+"rkey", 0x1000, 0x200000), vaddr: s.pick(who+"va", 0x7f0000000, 0x7fffffff0) << 12}
}
