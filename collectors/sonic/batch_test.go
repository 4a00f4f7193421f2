package sonic

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// batchingRunner is a fakeRunner that takes batches, as the SSH runner does.
type batchingRunner struct {
	*fakeRunner
	batches [][]string
	alone   []string
}

func (b *batchingRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	b.alone = append(b.alone, cmd)
	return b.fakeRunner.Run(ctx, cmd)
}

func (b *batchingRunner) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	b.batches = append(b.batches, cmds)
	return collectors.RunEach(ctx, b.fakeRunner, cmds)
}

// A SONiC switch's commands are all fixed: on a runner that batches they go in one batch,
// nothing alone, and the facts are those of one command at a time.
func TestCollectInOneBatch(t *testing.T) {
	for _, scenario := range []string{"healthy", "broken"} {
		want, wantErr := collect(t, &fakeRunner{Scenario: scenario}, inventory.DeviceSpec{})
		b := &batchingRunner{fakeRunner: &fakeRunner{Scenario: scenario}}
		got := &topology.Device{Name: want.Name, Platform: want.Platform, Role: want.Role}
		err := Platform{}.Collect(context.Background(), b, inventory.DeviceSpec{Name: want.Name}, got)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%s: batched error %v, one at a time %v", scenario, err, wantErr)
		}
		if len(b.batches) != 1 || len(b.alone) != 0 || !slices.Contains(b.batches[0], CmdRunningConfig) {
			t.Errorf("%s: batches %q, alone %q; want one batch", scenario, b.batches, b.alone)
		}
		gotJSON, _ := json.Marshal(got.Switch)
		wantJSON, _ := json.Marshal(want.Switch)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%s: facts differ:\nbatched       %s\none at a time %s", scenario, gotJSON, wantJSON)
		}
	}
}
