package linux

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// transcriptRunner answers from one host's recorded transcript (command -> output).
type transcriptRunner map[string]collectors.Output

func (t transcriptRunner) Run(_ context.Context, cmd string) (collectors.Output, error) {
	o, ok := t[cmd]
	if !ok {
		return collectors.Output{}, fmt.Errorf("%q: not in the transcript", cmd)
	}
	return o, nil
}

// loadTranscript reads testdata/rail8-host.json.gz: gpu01 of the lab's generated 8-rail
// fabric (hosts=32,leaves=8,spines=2,rails=8), as `roceaudit collect` recorded it.
func loadTranscript(tb testing.TB) transcriptRunner {
	tb.Helper()
	f, err := os.Open("testdata/rail8-host.json.gz")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]struct {
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.NewDecoder(z).Decode(&m); err != nil {
		tb.Fatal(err)
	}
	r := transcriptRunner{}
	for k, v := range m {
		r[k] = collectors.Output{Stdout: v.Stdout, Stderr: v.Stderr, ExitCode: v.ExitCode}
	}
	return r
}

func collectRail8(tb testing.TB, r transcriptRunner) *topology.Device {
	tb.Helper()
	dev := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(context.Background(), r, inventory.DeviceSpec{Name: "gpu01"}, dev); err != nil {
		tb.Fatal(err)
	}
	return dev
}

// The recorded 8-rail host collects all eight ports with every fact known.
func TestCollectRail8Transcript(t *testing.T) {
	dev := collectRail8(t, loadTranscript(t))
	if got := len(dev.Host.Ports); got != 8 {
		t.Fatalf("ports = %d, want 8", got)
	}
	for _, p := range dev.Host.Ports {
		if !p.Link.Usable() || !p.State.Usable() || !p.GIDs.Usable() || !p.Counters.Usable() || !p.QoS.Usable() {
			t.Errorf("%s: a discovery or per-port fact is not known: link %v state %v gids %v counters %v qos %v",
				p.Netdev, p.Link.Usable(), p.State.Usable(), p.GIDs.Usable(), p.Counters.Usable(), p.QoS.Usable())
		}
	}
}

// BenchmarkCollectRail8Host is the parsing side of one 8-rail host's collection (the
// transport answers from memory): what a 1k 8-rail audit spends per host beyond SSH.
func BenchmarkCollectRail8Host(b *testing.B) {
	r := loadTranscript(b)
	b.ReportAllocs()
	for b.Loop() {
		collectRail8(b, r)
	}
}
