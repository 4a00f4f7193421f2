package cumulus

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

// gauge is a runner that holds each command a moment and records how many ran at once.
type gauge struct {
	next collectors.Runner
	mu   sync.Mutex
	now  int
	max  int
}

func (g *gauge) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	g.mu.Lock()
	g.now++
	g.max = max(g.max, g.now)
	g.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	defer func() { g.mu.Lock(); g.now--; g.mu.Unlock() }()
	return g.next.Run(ctx, cmd)
}

// Ports are read several at a time, never more than portsInFlight, and come back in port
// order whatever order they finished in.
func TestPortsReadConcurrentlyInOrder(t *testing.T) {
	var names []string
	for i := 1; i <= 40; i++ {
		names = append(names, fmt.Sprintf("swp%d", i))
	}
	g := &gauge{next: &fakeRunner{Scenario: "healthy"}}
	dev, err := collect(t, g, inventory.DeviceSpec{Interfaces: names})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(names, portNamesOf(dev.Switch)); d != "" {
		t.Errorf("ports out of order (-want +got):\n%s", d)
	}
	if g.max < 2 || g.max > portsInFlight {
		t.Errorf("%d commands at once, want 2..%d", g.max, portsInFlight)
	}
	if p := dev.Switch.Port("swp2"); !p.MTU.Usable() || p.MTU.Source.Command != "nv show interface swp2 link" {
		t.Errorf("swp2 MTU %+v", p.MTU)
	}
}
