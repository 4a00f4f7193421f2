package linux

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	return collectRail8In(tb, context.Background(), r)
}

func collectRail8In(tb testing.TB, ctx context.Context, r transcriptRunner) *topology.Device {
	tb.Helper()
	dev := &topology.Device{Name: "gpu01", Platform: "linux", Role: topology.RoleHost}
	if err := (Platform{}).Collect(ctx, r, inventory.DeviceSpec{Name: "gpu01"}, dev); err != nil {
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

// Counters dropped as they are parsed (an audit's collection, WithCounterFilter) leave the
// facts that collecting every counter and pruning them after does.
func TestCounterFilterIsPruning(t *testing.T) {
	r := loadTranscript(t)
	pruned := collectRail8(t, r)
	all := 0
	for _, p := range pruned.Host.Ports {
		all += len(p.Counters.Value)
	}
	topology.PruneHostCounters(pruned)
	kept := 0
	for _, p := range pruned.Host.Ports {
		kept += len(p.Counters.Value)
	}
	if kept == 0 || kept >= all {
		t.Fatalf("pruning kept %d of %d counters: the transcript does not test the filter", kept, all)
	}
	filtered := collectRail8In(t, collectors.WithCounterFilter(context.Background(), collectors.NewCounterFilter(topology.IsSnapshotCounter)), r)
	if diff := cmp.Diff(pruned, filtered); diff != "" {
		t.Errorf("filtered while parsing (-pruned after +filtered):\n%s", diff)
	}
	// Counters read and none kept are a known, empty set, as pruning leaves them; not unknown.
	none := collectRail8In(t, collectors.WithCounterFilter(context.Background(), collectors.NewCounterFilter(func(string) bool { return false })), r)
	emptied := collectRail8(t, r)
	for _, p := range emptied.Host.Ports {
		p.Counters.Value = map[string]int64{}
	}
	if diff := cmp.Diff(emptied, none); diff != "" {
		t.Errorf("nothing kept (-emptied after +filtered):\n%s", diff)
	}
}

// BenchmarkCollectRail8Host is the parsing side of one 8-rail host's collection (the
// transport answers from memory): what a 1k 8-rail audit spends per host beyond SSH, with
// every counter (collect) and with the counters checks read (audit).
//
// Its profile, after the parsers took the excerpts into their own passes (1738 -> ~765
// allocs/op): the counters are half of it, mostly the map of ~250 counters a port (its
// allocation and assignments) and, when filtered, topology.IsSnapshotCounter's sync.Map;
// then the ip JSON read twice (ParseIPAddr's scan, the excerpts' scan: jsonscan does not
// give a value's offsets), collectors.Expand's validation, mlnx_qos's maps. Tried and not
// kept: one byte loop per ethtool row, a search by letter pairs (no faster); a goroutine
// per task grew 48 stacks (10% of the CPU), a goroutine per port still 8. Then the counter
// names' memo look-ups gave way to layouts (the last output's names in order), the map to
// its exact size, and the ip excerpts to ParseIPAddr's scan (183.5 -> 167.5 kB, 766 -> 761
// allocs/op; ~9% fewer CPU samples). Left: ethtool's row loop (line cut, trim, integer, map
// insert), the ibv_devinfo/GID line cutting, lldpcli's slices. mlnx_qos is parsed per port
// here (no RunMemo in ctx); an audit's run parses it once.
func BenchmarkCollectRail8Host(b *testing.B) {
	r := loadTranscript(b)
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"all", context.Background()}, {"checked", collectors.WithCounterFilter(context.Background(), collectors.NewCounterFilter(topology.IsSnapshotCounter))}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				collectRail8In(b, c.ctx, r)
			}
		})
	}
}

// BenchmarkDecodeIPLinks is an 8-rail host's `ip -d -j addr show` read by the scan and by
// encoding/json (the fallback).
func BenchmarkDecodeIPLinks(b *testing.B) {
	text := loadTranscript(b)["ip -d -j addr show"].Stdout
	if _, _, ok := scanIPLinks(text); !ok {
		b.Fatal("the scan declined the recorded output")
	}
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scanIPLinks(text)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var links []ipLink
			if err := json.Unmarshal([]byte(text), &links); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeLLDPJSON0 is an 8-rail host's lldpcli json0 read by the scan and by
// encoding/json (the fallback).
func BenchmarkDecodeLLDPJSON0(b *testing.B) {
	text := loadTranscript(b)["lldpcli -f json0 show neighbors"].Stdout
	if _, ok := scanLLDPJSON0(text); !ok {
		b.Fatal("the scan declined the recorded output")
	}
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scanLLDPJSON0(text)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var doc lldpJSON0
			if err := json.Unmarshal([]byte(text), &doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
