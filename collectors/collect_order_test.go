package collectors

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// orderDialer records the order devices are dialled in.
type orderDialer struct {
	mu     sync.Mutex
	dialed []string
	sent   map[string]*[]string
}

func (d *orderDialer) Dial(_ context.Context, spec inventory.DeviceSpec, _ *Allowlist) (Session, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dialed = append(d.dialed, spec.Name)
	return fakeSession{sent: d.sent[spec.Name]}, nil
}

// recordingSink keeps what a transcript sink is given.
type recordingSink struct {
	mu  sync.Mutex
	got map[string][]topology.Exchange
}

func (r *recordingSink) Add(device string, ex []topology.Exchange) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[device] = ex
	return nil
}

// Switches (many round trips each) start before hosts; the snapshot keeps inventory order,
// and a transcript sink receives every device's transcript instead of the device.
func TestCollectStartsSwitchesFirstAndHandsTranscriptsOver(t *testing.T) {
	sw := Describe(Spec{Name: "fakesw", Role: topology.RoleSwitch, Commands: []string{"ethtool -a {if}"}, Collector: fakePlatform{send: []string{"ethtool -a eth0"}}})
	reg := NewRegistry(fake(fakePlatform{send: []string{"ethtool -a eth0"}}), sw)
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{
		{Name: "h1", Platform: "fake", Role: topology.RoleHost},
		{Name: "h2", Platform: "fake", Role: topology.RoleHost},
		{Name: "s1", Platform: "fakesw", Role: topology.RoleSwitch},
		{Name: "s2", Platform: "fakesw", Role: topology.RoleSwitch},
	}}
	d := &orderDialer{sent: map[string]*[]string{"h1": {}, "h2": {}, "s1": {}, "s2": {}}}
	sink := &recordingSink{got: map[string][]topology.Exchange{}}
	snap, err := Collect(context.Background(), inv, reg, d, Options{Concurrency: 1, Transcripts: sink})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"s1", "s2", "h1", "h2"}; !slices.Equal(d.dialed, want) {
		t.Errorf("dialled %v, want %v", d.dialed, want)
	}
	for i, want := range []string{"h1", "h2", "s1", "s2"} {
		dev := snap.Devices[i]
		if dev.Name != want || dev.Transcript != nil {
			t.Errorf("device %d: %s with %d exchanges, want %s with none", i, dev.Name, len(dev.Transcript), want)
		}
		if ex := sink.got[want]; len(ex) != 1 || ex[0].Command != "ethtool -a eth0" {
			t.Errorf("%s: sink got %+v", want, ex)
		}
	}
}
