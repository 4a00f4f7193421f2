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
	"github.com/roceaudit/roceaudit/topology"
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

// On a runner that batches, the switch-wide commands go in one batch, the first port's in
// another, and every other port's in batches foretold from it: the same commands and the
// same facts as one at a time.
func TestCollectBatchesThePorts(t *testing.T) {
	for _, c := range []struct {
		scenario string
		alone    []string // sent on their own: text fallbacks of a refused -o json
	}{
		{"healthy", nil},
		{"broken", []string{CmdInterfaceLLDP}},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			one := &fakeRunner{Scenario: c.scenario}
			want, wantErr := collect(t, one, inventory.DeviceSpec{})
			b := &batchingRunner{fakeRunner: &fakeRunner{Scenario: c.scenario}}
			got, err := collect(t, b, inventory.DeviceSpec{})
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("batched error %v, one at a time %v", err, wantErr)
			}
			sentOne, sentBatch := slices.Sorted(slices.Values(one.Sent)), slices.Sorted(slices.Values(b.Sent))
			if !slices.Equal(sentOne, sentBatch) {
				t.Errorf("batched sent %q\none at a time %q", sentBatch, sentOne)
			}
			// One batch of switch-wide commands, one of the first port's (foretold by a dry
			// run), then the other ports' in at most portsInFlight batches.
			ports := len(got.Switch.Ports)
			if n := len(b.batches); n != 2+min(ports-1, portsInFlight) || len(b.batches[0]) != 3 {
				t.Errorf("%d batches for %d ports: %q", n, ports, b.batches)
			}
			for _, cmd := range b.batches[1] {
				if p := portOf(cmd); p != got.Switch.Ports[0].Name {
					t.Errorf("the first port's batch holds %q", cmd)
				}
			}
			if !slices.Equal(b.alone, c.alone) {
				t.Errorf("sent alone %q, want %q", b.alone, c.alone)
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

// A transcript holds what the collector read. When one port's JSON counters fail, the
// ports read after it fall back to the text, and the JSON answers their batches brought
// are never read: they are not in the transcript. Only a port whose JSON was read and
// failed holds both forms.
func TestTranscriptHoldsOnlyWhatWasRead(t *testing.T) {
	failed := "nv show interface swp2 counters qos -o json"
	// Ports are read concurrently: whether one is read after swp2 varies, so a few runs.
	for range 20 {
		b := &batchingRunner{fakeRunner: &fakeRunner{Scenario: "healthy", Override: map[string]collectors.Output{failed: {Stdout: "{"}}}}
		dev := &topology.Device{Name: "leaf2", Platform: "cumulus", Role: topology.RoleSwitch}
		if err := (Platform{}).Collect(context.Background(), collectors.Record(b, Descriptor().Allowlist(), dev), inventory.DeviceSpec{Name: "leaf2"}, dev); err != nil {
			t.Fatal(err)
		}
		recorded := map[string]bool{}
		for _, ex := range dev.Transcript {
			if recorded[ex.Command] {
				t.Errorf("%q recorded twice", ex.Command)
			}
			recorded[ex.Command] = true
		}
		for _, p := range dev.Switch.Ports {
			text := "nv show interface " + p.Name + " counters qos"
			if recorded[jsonCmd(text)] && recorded[text] && jsonCmd(text) != failed {
				t.Fatalf("%s: both counter forms recorded, but its JSON was not read (its counters come from %q)", p.Name, p.Counters.Source.Command)
			}
		}
		if !recorded[failed] {
			t.Fatalf("the failed JSON read %q is not in the transcript", failed)
		}
	}
}
