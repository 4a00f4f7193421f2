package linux

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// batchingRunner is a fakeRunner that takes batches, as the SSH runner does.
type batchingRunner struct {
	*fakeRunner
	batches [][]string
	single  []string // commands sent on their own
}

func (b *batchingRunner) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	b.batches = append(b.batches, cmds)
	return collectors.RunEach(ctx, b.fakeRunner, cmds)
}

func (b *batchingRunner) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	b.single = append(b.single, cmd)
	return b.fakeRunner.Run(ctx, cmd)
}

// On a runner that batches, a host is one batch of discovery, one of every port's commands
// and one of the fallbacks those call for; nothing goes alone, and the facts are the ones
// the same answers give one command at a time.
func TestCollectInPhases(t *testing.T) {
	for _, c := range []struct {
		scenario string
		batches  int
	}{
		{"ofed-lossless", 2},
		{"dual-port", 3},         // one port's traffic_class is unset: default_roce_tos
		{"inbox-dcb", 3},         // no mlnx_qos: dcb is the fallback
		{"no-systemd", 2},        // pgrep rides with the ports
		{"roce-lag", 2},          // the slaves' commands ride with the bond's
		{"ipv6-gids-no-rdma", 3}, // traffic_class unset
	} {
		t.Run(c.scenario, func(t *testing.T) {
			spec := inventory.DeviceSpec{Name: "gpu01"}
			one := newFakeRunner(c.scenario)
			want, wantErr := collectScenario(t, one, spec)
			b := &batchingRunner{fakeRunner: newFakeRunner(c.scenario)}
			dev := &topology.Device{Name: spec.Name, Platform: "linux", Role: topology.RoleHost}
			err := Platform{}.Collect(context.Background(), b, spec, dev)
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("batched error %v, one by one %v", err, wantErr)
			}
			if len(b.single) != 0 || len(b.batches) != c.batches {
				t.Errorf("%d batches (%q), %d alone (%q); want %d batches, none alone", len(b.batches), b.batches, len(b.single), b.single, c.batches)
			}
			sentOne, sentBatch := one.sentCommands(), b.sentCommands()
			slices.Sort(sentOne)
			slices.Sort(sentBatch)
			if !slices.Equal(sentOne, sentBatch) {
				t.Errorf("batched sent %q, one by one %q", sentBatch, sentOne)
			}
			gotJSON, _ := json.Marshal(dev.Host)
			wantJSON, _ := json.Marshal(want.Host)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("facts differ:\nbatched    %s\none by one %s", gotJSON, wantJSON)
			}
		})
	}
}

// A value that fails validation is never batched: its task reports the validation error.
func TestPhaseSkipsInvalidValues(t *testing.T) {
	b := &batchingRunner{fakeRunner: newFakeRunner("ofed-lossless")}
	e := newExecutor(b, false)
	e.phase(context.Background(), []call{e.call(CmdEthtoolPause, map[string]string{"if": "eth0;reboot"}), e.call(CmdNCCLConf, nil)})
	if len(b.batches) != 1 || len(b.batches[0]) != 1 || b.batches[0][0] != CmdNCCLConf {
		t.Fatalf("batches %q", b.batches)
	}
	if r := e.run(context.Background(), CmdEthtoolPause, map[string]string{"if": "eth0;reboot"}); r.err == nil || !strings.Contains(r.err.Error(), "not sent") {
		t.Errorf("invalid value: %+v", r)
	}
	if len(b.single) != 0 {
		t.Errorf("sent alone: %q", b.single)
	}
}
