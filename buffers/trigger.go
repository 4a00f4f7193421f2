package buffers

import (
	"fmt"
	"math"

	"github.com/roceaudit/roceaudit/topology"
)

// PFCTrigger is the RoCE priority group's occupancy, in bytes, at which it sends XOFF at the
// latest: its reserved buffer plus the largest share of the shared pool it may take. For a
// dynamic threshold that share is alpha/(1+alpha) of the pool (alpha = 2^dynamic_th), reached
// when nothing else holds pool buffer; under load it only shrinks, so an ECN threshold at or
// above this point can never fire first.
func PFCTrigger(o topology.PFCThreshold) (int64, string) {
	if !o.HasDynamicTh {
		return o.Reserved + o.StaticTh, fmt.Sprintf("reserved %d B + static_th %d B", o.Reserved, o.StaticTh)
	}
	alpha := math.Pow(2, float64(o.DynamicTh))
	share := int64(alpha / (1 + alpha) * float64(o.PoolSize))
	return o.Reserved + share, fmt.Sprintf("reserved %d B + %d B (dynamic_th %d: alpha/(1+alpha) of %s %d B)",
		o.Reserved, share, o.DynamicTh, o.Pool, o.PoolSize)
}
