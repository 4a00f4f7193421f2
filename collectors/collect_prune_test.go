package collectors

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// counterPlatform gives its one host port a mix of mlx5 counters, read and not read from a
// snapshot.
type counterPlatform struct{}

func (counterPlatform) Plan(inventory.DeviceSpec) []string { return nil }
func (counterPlatform) Collect(ctx context.Context, r Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	if _, err := r.Run(ctx, "ethtool -a eth0"); err != nil {
		return err
	}
	dev.Host = &topology.HostFacts{Ports: []*topology.HostPort{{Netdev: "eth0", Counters: topology.Known(map[string]int64{
		"tx_pause_storm_warning_events": 2, "rx_prio3_pause": 7, "rx_discards_phy": 1,
		"rdma_out_of_sequence": 3, "rx_bytes": 100, "rx_vport_rdma_unicast_packets": 5, "rdma_np_cnp_sent": 9,
	}, topology.Evidence{Command: "ethtool -S eth0"})}}}
	return nil
}

// With the transcript handed to a sink (which keeps every counter line), a host port keeps
// only the counters read from a snapshot; without one, it keeps them all.
func TestCollectKeepsOnlySnapshotCountersOnceTheTranscriptIsHandedOver(t *testing.T) {
	reg := NewRegistry(fake(counterPlatform{}))
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{{Name: "h1", Platform: "fake", Role: topology.RoleHost}}}
	collect := func(opts Options) map[string]int64 {
		t.Helper()
		snap, err := Collect(context.Background(), inv, reg, &orderDialer{sent: map[string]*[]string{"h1": {}}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		p := snap.Devices[0].Host.Ports[0]
		if !p.Counters.Usable() || p.Counters.Source.Command != "ethtool -S eth0" {
			t.Fatalf("counters fact %+v", p.Counters)
		}
		return p.Counters.Value
	}
	want := map[string]int64{"tx_pause_storm_warning_events": 2, "rx_prio3_pause": 7, "rx_discards_phy": 1, "rdma_out_of_sequence": 3, "rx_bytes": 100}
	if got := collect(Options{Concurrency: 1, Transcripts: topology.DiscardTranscripts}); !maps.Equal(got, want) {
		t.Errorf("with a transcript sink: %v, want %v", got, want)
	}
	if got := collect(Options{Concurrency: 1}); len(got) != 7 {
		t.Errorf("without a transcript sink: %v, want all 7 counters", got)
	}
}

// recordingFacts keeps what a fact sink is given, by device index.
type recordingFacts struct {
	mu  sync.Mutex
	got map[int]topology.Device
}

func (r *recordingFacts) Add(i int, d *topology.Device) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[i] = *d
	return nil
}

// With a fact sink, each device's facts (counters pruned as the snapshot keeps them) go to
// the sink under the device's index, and the snapshot keeps only who the device is and
// whether it answered.
func TestCollectHandsFactsToTheSink(t *testing.T) {
	reg := NewRegistry(fake(counterPlatform{}))
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{
		{Name: "h1", Platform: "fake", Role: topology.RoleHost},
		{Name: "h2", Platform: "fake", Role: topology.RoleHost},
		{Name: "x", Platform: "none", Role: topology.RoleHost},
	}}
	facts := &recordingFacts{got: map[int]topology.Device{}}
	snap, err := Collect(context.Background(), inv, reg, &orderDialer{sent: map[string]*[]string{"h1": {}, "h2": {}}},
		Options{Concurrency: 2, Transcripts: topology.DiscardTranscripts, Facts: facts})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"h1", "h2", "x"} {
		d, got := snap.Devices[i], facts.got[i]
		if d.Name != name || d.Host != nil || d.Switch != nil {
			t.Errorf("snapshot device %d: %s, host facts %v: want %s without facts", i, d.Name, d.Host != nil, name)
		}
		if got.Name != name || got.Reachable != d.Reachable || got.Error != d.Error {
			t.Errorf("sink device %d: %s reachable %v error %q; snapshot says %s %v %q", i, got.Name, got.Reachable, got.Error, d.Name, d.Reachable, d.Error)
		}
	}
	if c := facts.got[0].Host.Ports[0].Counters.Value; len(c) != 5 {
		t.Errorf("h1's spooled counters %v: want the 5 a snapshot keeps", c)
	}
	if facts.got[2].Error == "" || facts.got[2].Host != nil {
		t.Errorf("x (no collector) reached the sink as %+v", facts.got[2])
	}
}

// switchCounterPlatform is a switch whose one port has counters and a DSCP map.
type switchCounterPlatform struct{}

func (switchCounterPlatform) Plan(inventory.DeviceSpec) []string { return nil }
func (switchCounterPlatform) Collect(ctx context.Context, r Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	out, err := r.Run(ctx, "show interfaces counters")
	if err != nil {
		return err
	}
	if _, err := r.Run(ctx, "reboot"); err == nil {
		return errors.New("a command outside the allowlist ran")
	}
	dev.Switch = &topology.SwitchFacts{Ports: []*topology.SwitchPort{{Name: "swp1",
		DSCPToTC: topology.Known(map[int]int{26: 3}, topology.Evidence{Command: "show qos"}),
		Counters: topology.Known(map[string]int64{"pfc_rx_pause_prio3": 4}, topology.Evidence{Command: "show interfaces counters", Excerpt: out.Stdout})}}}
	return nil
}

// A run that writes no snapshot (transcripts discarded, ChecksOnly) records no transcript
// at all, still refuses what the allowlist does not allow, and drops the switch-port
// counters no check reads; a run that keeps transcripts keeps both.
func TestCollectChecksOnlyKeepsNeitherTranscriptNorSwitchCounters(t *testing.T) {
	reg := NewRegistry(Describe(Spec{Name: "fakesw", Role: topology.RoleSwitch, Commands: []string{"show interfaces counters"}, Collector: switchCounterPlatform{}}))
	inv := &inventory.Inventory{Recipe: recipe.Default(), Devices: []inventory.DeviceSpec{{Name: "s1", Platform: "fakesw", Role: topology.RoleSwitch}}}
	run := func(opts Options) (*topology.Device, []topology.Exchange) {
		t.Helper()
		sink := &recordingSink{got: map[string][]topology.Exchange{}}
		if opts.Transcripts == nil {
			opts.Transcripts = sink
		}
		snap, err := Collect(context.Background(), inv, reg, &orderDialer{sent: map[string]*[]string{"s1": {}}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		d := snap.Devices[0]
		if d.Error != "" || d.Switch == nil {
			t.Fatalf("s1: %q, facts %v", d.Error, d.Switch != nil)
		}
		return d, sink.got["s1"]
	}
	d, _ := run(Options{Transcripts: topology.DiscardTranscripts, ChecksOnly: true})
	p := d.Switch.Ports[0]
	if p.Counters.Value != nil || p.Counters.Source.Command != "show interfaces counters" {
		t.Errorf("checks only: counters %+v, want no values but their source", p.Counters)
	}
	if p.DSCPToTC.Value[26] != 3 || d.Transcript != nil {
		t.Errorf("checks only: DSCP map %v, transcript %v", p.DSCPToTC.Value, d.Transcript)
	}
	// What is not recorded is never held, even while the device is collected.
	for _, record := range []bool{false, true} {
		dev := &topology.Device{Name: "s1", Role: topology.RoleSwitch}
		collectDevice(context.Background(), reg, &orderDialer{sent: map[string]*[]string{"s1": {}}}, inv.Devices[0], dev, record)
		if n := len(dev.Transcript); (n == 2) != record || (n != 0) != record {
			t.Errorf("recording %v: %d exchanges", record, n)
		}
	}
	d, tr := run(Options{})
	if c := d.Switch.Ports[0].Counters.Value; c["pfc_rx_pause_prio3"] != 4 {
		t.Errorf("with a transcript sink: counters %v", c)
	}
	if len(tr) != 2 || tr[0].Stdout != "out of show interfaces counters" || tr[1].ExitCode != -1 {
		t.Errorf("with a transcript sink: transcript %+v", tr)
	}
}
