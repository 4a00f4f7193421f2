package linux

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// batchCounter answers from a transcript in batches, as an SSH runner does, and counts them.
type batchCounter struct {
	transcriptRunner
	mu      sync.Mutex
	batches int
	sent    []string
}

func (b *batchCounter) RunBatch(ctx context.Context, cmds []string) ([]collectors.Output, []error) {
	b.mu.Lock()
	b.batches++
	b.sent = append(b.sent, cmds...)
	b.mu.Unlock()
	outs, errs := make([]collectors.Output, len(cmds)), make([]error, len(cmds))
	for i, c := range cmds {
		outs[i], errs[i] = b.Run(ctx, c)
	}
	return outs, errs
}

func collectCounted(t *testing.T, ctx context.Context, tr transcriptRunner) (*topology.Device, *batchCounter) {
	t.Helper()
	r := &batchCounter{transcriptRunner: tr}
	dev := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(ctx, r, inventory.DeviceSpec{Name: "gpu01"}, dev); err != nil {
		t.Fatal(err)
	}
	return dev, r
}

// Within a run, once two hosts in a row needed the same per-port commands, the next hosts
// send them with discovery: one batch (one SSH session) instead of two, and the same facts.
func TestForecastSendsPortCommandsWithDiscovery(t *testing.T) {
	tr := loadTranscript(t)
	want, alone := collectCounted(t, context.Background(), tr)
	if alone.batches != 2 {
		t.Fatalf("a host outside a run took %d batches, want 2 (discovery, ports)", alone.batches)
	}
	run := collectors.WithRunMemo(context.Background(), &collectors.RunMemo{})
	for i, batches := range []int{2, 2, 1, 1} {
		got, r := collectCounted(t, run, tr)
		if r.batches != batches {
			t.Errorf("host %d of the run took %d batches, want %d", i+1, r.batches, batches)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("host %d's facts (-alone +in a run):\n%s", i+1, d)
		}
	}
}

// A guess that does not fit the host (ports it lacks) costs only the commands: the host
// reads its own ports in phase two and its facts are what they would have been.
func TestForecastWrongGuessChangesNoFact(t *testing.T) {
	tr := loadTranscript(t)
	want, _ := collectCounted(t, context.Background(), tr)
	memo := &collectors.RunMemo{}
	run := collectors.WithRunMemo(context.Background(), memo)
	wrong := []string{"ethtool -S ens99np0", "mlnx_qos -i ens99np0"}
	f := forecastOf(run, false)
	f.learn(wrong)
	f.learn(append([]string(nil), wrong...))
	got, r := collectCounted(t, run, tr)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("facts after a wrong guess (-alone +guessed):\n%s", d)
	}
	if r.batches != 2 || !slices.Contains(r.sent, wrong[0]) {
		t.Errorf("%d batches, guess sent %v: want the guess sent with discovery and the ports after", r.batches, slices.Contains(r.sent, wrong[0]))
	}
	if g := f.guess(); g != nil {
		t.Errorf("the wrong guess is still the forecast after a host needed other commands: %q", g)
	}
}
