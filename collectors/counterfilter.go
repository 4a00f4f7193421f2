package collectors

import "context"

type counterFilterKey struct{}

// WithCounterFilter tells the collectors under ctx that only the host NIC counters keep
// names will be kept (the rest are pruned after collection, as topology.PruneHostCounters
// does): a collector may drop the others as it parses. An 8-rail host's ethtool -S maps of
// ~250 counters per NIC were 110 MB of a 1,000-device audit's allocation, then pruned.
func WithCounterFilter(ctx context.Context, keep func(name string) bool) context.Context {
	return context.WithValue(ctx, counterFilterKey{}, keep)
}

// CounterFilter is the filter of WithCounterFilter, or nil: keep every counter.
func CounterFilter(ctx context.Context) func(name string) bool {
	keep, _ := ctx.Value(counterFilterKey{}).(func(string) bool)
	return keep
}
