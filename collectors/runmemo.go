package collectors

import (
	"context"
	"sync"
)

// RunMemo is what collectors remember across the devices of one collection run (Collect
// makes one per run): what one device taught that the next of its kind may use. It never
// outlives the run, so what a run sends never depends on an earlier one.
type RunMemo struct{ m sync.Map }

type runMemoKey struct{}

// WithRunMemo gives the collectors under ctx m to remember in.
func WithRunMemo(ctx context.Context, m *RunMemo) context.Context {
	return context.WithValue(ctx, runMemoKey{}, m)
}

// RunMemoOf is ctx's run memo, or nil outside a collection run.
func RunMemoOf(ctx context.Context) *RunMemo {
	m, _ := ctx.Value(runMemoKey{}).(*RunMemo)
	return m
}

// Load is the value under key, made by newValue on first use.
func (m *RunMemo) Load(key any, newValue func() any) any {
	if v, ok := m.m.Load(key); ok {
		return v
	}
	v, _ := m.m.LoadOrStore(key, newValue())
	return v
}
