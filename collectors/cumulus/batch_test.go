package cumulus

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
)

// batchingRunner is a fakeRunner that takes batches, as the SSH runner does.
type batchingRunner struct {
	*fakeRunner
	mu      sync.Mutex
	batches [][]string
	alone   []string
}

func (b *batchingRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	b.mu.Lock()
	b.alone = append(b.alone, cmd)
	b.mu.Unlock()
	return b.fakeRunner.Run(ctx, cmd)
}

func (b *batchingRunner) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	b.mu.Lock()
	b.batches = append(b.batches, cmds)
	b.mu.Unlock()
	return collectors.RunEach(ctx, b.fakeRunner, cmds)
}

// On a runner that batches, the switch-wide commands go in one batch, the first port's
// commands alone, and every other port's in batches foretold from it: the same commands and
// the same facts as one at a time.
func TestCollectBatchesThePorts(t *testing.T) {
	for _, scenario := range []string{"healthy", "broken"} {
		t.Run(scenario, func(t *testing.T) {
			one := &fakeRunner{Scenario: scenario}
			want, wantErr := collect(t, one, inventory.DeviceSpec{})
			b := &batchingRunner{fakeRunner: &fakeRunner{Scenario: scenario}}
			got, err := collect(t, b, inventory.DeviceSpec{})
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("batched error %v, one at a time %v", err, wantErr)
			}
			sentOne, sentBatch := slices.Sorted(slices.Values(one.Sent)), slices.Sorted(slices.Values(b.Sent))
			if !slices.Equal(sentOne, sentBatch) {
				t.Errorf("batched sent %q\none at a time %q", sentBatch, sentOne)
			}
			ports := len(got.Switch.Ports)
			// The first batch is the switch-wide commands; the first port's go alone (and any
			// text fallback); then at most portsInFlight batches for the rest.
			if len(b.batches) < 2 || len(b.batches) > 1+portsInFlight || len(b.batches[0]) != 3 {
				t.Errorf("%d batches for %d ports: %q", len(b.batches), ports, b.batches)
			}
			for _, c := range b.alone {
				if f := portOf(c); f != "" && f != got.Switch.Ports[0].Name {
					t.Errorf("%q went alone: only the first port's commands should", c)
				}
			}
			gotJSON, _ := json.Marshal(got.Switch)
			wantJSON, _ := json.Marshal(want.Switch)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("facts differ:\nbatched       %s\none at a time %s", gotJSON, wantJSON)
			}
		})
	}
}

// portOf is the port a per-port command names ("nv show interface PORT ..."), or "".
func portOf(cmd string) string {
	if f := strings.Fields(cmd); len(f) > 3 && f[2] == "interface" && f[3] != "lldp" {
		return f[3]
	}
	return ""
}
