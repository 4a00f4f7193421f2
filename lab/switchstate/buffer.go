package switchstate

// Headroom is a lossless buffer profile as an operator binds it: the cable length it was sized
// for, its xoff/xon/size in bytes and the dynamic threshold (log2 alpha) of its shared-pool share.
type Headroom struct {
	CableM          int
	Xoff, Xon, Size int
	DynamicTh       int
}

// The healthy lab's buffer values. The profile is what SONiC's Mellanox headroom formula
// gives a Spectrum-3 port at 100G, 40 m, MTU 9216 (xoff 90 KB, xon 18 KB: the pipeline
// latency), and the ECN thresholds are the stock AZURE_LOSSLESS WRED profile's (1 MB / 2 MB),
// below the profile's PFC trigger (18 KB reserved + 1/9 of the 12766208-byte pool).
var (
	HealthyHeadroom = Headroom{CableM: 40, Xoff: 92160, Xon: 18432, Size: 110592, DynamicTh: -3}
	HealthyECNMin   = 1048576
	HealthyECNMax   = 2097152
)

// Healthy400GHeadroom is the same formula at 400G (pause quanta 905, twice the cable's
// bytes in flight): xoff 194 KB; the lab rounds up to 196 KB.
var Healthy400GHeadroom = Headroom{CableM: 40, Xoff: 200704, Xon: 18432, Size: 219136, DynamicTh: -3}

// HealthyHeadroomFor is the healthy profile for a port of speed Gb/s.
func HealthyHeadroomFor(speed int) Headroom {
	if speed > 100 {
		return Healthy400GHeadroom
	}
	return HealthyHeadroom
}

// healthyBuffers gives a port the healthy cable length, headroom and ECN thresholds.
func healthyBuffers(p *Port) {
	p.CableM = HealthyHeadroom.CableM
	p.Headroom = HealthyHeadroomFor(p.Speed)
	p.ECNMin, p.ECNMax = HealthyECNMin, HealthyECNMax
}
