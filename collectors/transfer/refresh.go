package transfer

import (
	"context"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// counterRefresher is a platform whose counters are refreshed by a poller (SONiC's flex
// counters) rather than read from the hardware on every command.
type counterRefresher interface {
	CounterRefresh(ctx context.Context, run collectors.Runner) (time.Duration, error)
}

// counterSettle is the longest counter refresh interval of the sampled devices: the "after"
// sample waits that long past the end of the test, or it may miss the last of the traffic
// and its pauses. A device whose interval cannot be read counts with its platform's default.
func (r *Runner) counterSettle(ctx context.Context, snap *topology.Snapshot, ports map[string][]string) time.Duration {
	var longest time.Duration
	for dev := range ports {
		s, err := r.session(ctx, snap, dev)
		if err != nil {
			continue // the samples report it
		}
		if cr, ok := refresher(s.platform); ok {
			d, _ := cr.CounterRefresh(ctx, s.run) // on error d is the platform default
			longest = max(longest, d)
		}
	}
	return longest
}

// refresher is the platform's counter refresh capability, on it or on its collector.
func refresher(p collectors.Platform) (counterRefresher, bool) {
	if cr, ok := p.(counterRefresher); ok {
		return cr, true
	}
	if d, ok := p.(interface{ Collector() collectors.Collector }); ok {
		cr, ok := d.Collector().(counterRefresher)
		return cr, ok
	}
	return nil, false
}

// settle waits d, or until ctx ends.
func settle(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
