package collectors

import "context"

// CounterFilter names the host NIC counters a collection keeps (the rest are pruned after
// collection, as topology.PruneHostCounters does): a collector may drop the others as it
// parses. An 8-rail host's ethtool -S maps of ~250 counters per NIC were 110 MB of a
// 1,000-device audit's allocation, then pruned. A filter lives for one collection, and
// carries what collectors remember of it (Memo): a parser that looks each counter name up
// anyway learns whether the filter keeps it in the same look-up.
type CounterFilter struct {
	keep  func(name string) bool
	memos RunMemo // what collectors remember of this filter, by their keys
}

// NewCounterFilter is the filter that keeps the counters keep names; keep must answer the
// same for a name every time.
func NewCounterFilter(keep func(name string) bool) *CounterFilter {
	return &CounterFilter{keep: keep}
}

// Keep is whether the filter keeps the counter name.
func (f *CounterFilter) Keep(name string) bool { return f.keep(name) }

// Memo is the collector's value under key for this filter, made by newValue on first use.
func (f *CounterFilter) Memo(key any, newValue func() any) any { return f.memos.Load(key, newValue) }

type counterFilterKey struct{}

// WithCounterFilter tells the collectors under ctx to keep only the counters f keeps.
func WithCounterFilter(ctx context.Context, f *CounterFilter) context.Context {
	return context.WithValue(ctx, counterFilterKey{}, f)
}

// CounterFilterOf is the filter of WithCounterFilter, or nil: keep every counter.
func CounterFilterOf(ctx context.Context) *CounterFilter {
	f, _ := ctx.Value(counterFilterKey{}).(*CounterFilter)
	return f
}
