package transfer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// pollingPlatform is a platform whose counters refresh every interval; it notes when each
// counter read happened.
type pollingPlatform struct {
	fakePlatform
	interval time.Duration
	mu       *sync.Mutex
	reads    *[]time.Time
}

func (p pollingPlatform) CounterRefresh(context.Context, collectors.Runner) (time.Duration, error) {
	return p.interval, nil
}

func (p pollingPlatform) Collect(ctx context.Context, r collectors.Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	p.mu.Lock()
	*p.reads = append(*p.reads, time.Now())
	p.mu.Unlock()
	return p.fakePlatform.Collect(ctx, r, spec, dev)
}

func TestAfterSampleWaitsOneCounterRefresh(t *testing.T) {
	h := &fakeHost{client: "ok"}
	r, snap := setup(h)
	defer r.Close()
	var mu sync.Mutex
	var reads []time.Time
	const interval = 300 * time.Millisecond
	r.Registry = collectors.NewRegistry(collectors.Describe(collectors.Spec{Name: "fake", Role: topology.RoleHost,
		Commands: perftest.Templates(), Collector: pollingPlatform{fakePlatform{h}, interval, &mu, &reads}}))
	clientEnd := make(chan time.Time, 1)
	go func() { <-h.clientDone; clientEnd <- time.Now() }()
	x := r.Run(context.Background(), snap, a, b)
	if !x.Ran || len(x.Hops) != 2 {
		t.Fatalf("%+v", x)
	}
	end := <-clientEnd
	mu.Lock()
	defer mu.Unlock()
	if len(reads) != 4 { // two devices, before and after
		t.Fatalf("%d counter reads", len(reads))
	}
	for _, at := range reads[2:] {
		if gap := at.Sub(end); gap < interval {
			t.Errorf("after sample %v after the test, want >= %v", gap, interval)
		}
	}
}
