// Package leafbench holds the tests and benchmarks every switch platform runs on its leaf and
// spine of the generated 8-rail fabric (hosts=960,leaves=32,spines=8,rails=8, a 1,000-device
// audit with 8-rail hosts): the golden guard of their collected facts, and the benchmarks of
// one 248-port leaf's collection (exec, over the CLI, and its parsing alone). A platform's
// labcheck package declares the tests and benchmarks, each a call of a Platform method, and
// keeps the golden file in its testdata. It is imported by tests only.
//
// Profile a platform's collection, the collector's share alone (-focus), or its parsing:
//
//	go test -run '^$' -bench CollectGeneratedLeaf -cpuprofile cpu.out ./labcheck/eos
//	go tool pprof -top -cum -focus 'collectors/' cpu.out
//	go test -run '^$' -bench CollectGeneratedLeafCLI -cpuprofile cpu.out ./labcheck/eos
//	go test -run '^$' -bench ParseGeneratedLeaf -cpuprofile cpu.out ./labcheck/eos
package leafbench

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/internal/benchcpu"
	"github.com/roceaudit/roceaudit/internal/golden"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

var updateGenerated = flag.Bool("update-generated", false, "rewrite testdata/generated.json.gz from this collector")

// Platform is one switch platform of the generated fabric: its collector and the names of
// the leaf and the spine of the fabric it runs.
type Platform struct {
	Collector   *collectors.Descriptor
	Leaf, Spine string
}

// Generated are the platform's switches of the generated fabric: its 248-port leaf and its
// 32-port spine.
func (p Platform) Generated(tb testing.TB) (leaf, spine lab.Emulated) {
	tb.Helper()
	devs, _, err := lab.Emulate(lab.Options{Generate: &lab.Generate{Hosts: 960, Leaves: 32, Spines: 8, Rails: 8}}, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range devs {
		switch d.Name {
		case p.Leaf:
			leaf = d
		case p.Spine:
			spine = d
		}
	}
	if name := p.Collector.Name(); leaf.Platform != name || spine.Platform != name {
		tb.Fatalf("%s is %q, %s %q: the generated fabric's platforms moved", p.Leaf, leaf.Platform, p.Spine, spine.Platform)
	}
	return leaf, spine
}

// FactsUnchanged is the differential guard of the parsers' optimisations: the generated leaf
// and spine collect to exactly the facts recorded in testdata/generated.json.gz (evidence,
// excerpts and errors included). -update-generated records them again, for a change that
// means to alter facts.
func (p Platform) FactsUnchanged(t *testing.T) {
	leaf, spine := p.Generated(t)
	got := map[string]*topology.SwitchFacts{
		leaf.Name:  labcheck.Collect(t, p.Collector, leaf.Device, leaf.Switch),
		spine.Name: labcheck.Collect(t, p.Collector, spine.Device, spine.Switch),
	}
	golden.Check(t, golden.File{Path: filepath.Join("testdata", "generated.json.gz"), Update: *updateGenerated, Newline: true}, got)
}

// LeafOverCLI collects the generated leaf as the audit does, through the interactive CLI:
// the same facts as the exec collection (large replies, the queuing JSON of every port, come
// back intact through the CLI transport).
func (p Platform) LeafOverCLI(t *testing.T) {
	leaf, _ := p.Generated(t)
	viaCLI := labcheck.CollectOverCLI(t, p.Collector, labtest.StartSSH(t, leaf.Device, "admin"), leaf.Name)
	viaExec := labcheck.Collect(t, p.Collector, leaf.Device, leaf.Switch)
	if d := cmp.Diff(viaExec, viaCLI); d != "" {
		t.Errorf("the CLI collection differs from exec (-exec +cli):\n%s", d)
	}
}

// CollectLeaf benchmarks one collection of the generated leaf in one process: the collector's
// commands answered by the emulator's Exec (no SSH), so the profile holds the emulator's
// share beside the collector's (-focus collectors/ to see the latter).
func (p Platform) CollectLeaf(b *testing.B) {
	leaf, _ := p.Generated(b)
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		labcheck.Collect(b, p.Collector, leaf.Device, leaf.Switch)
	}
}

// CollectLeafCLI benchmarks the same collection as the audit makes it: dialled over SSH to
// the emulator, through roceaudit's interactive CLI transport (scrapligo), one session per
// collection. The EOS and NX-OS CLIs take one command per request, so each is a
// prompt-delimited reply scrapligo reads and searches.
func (p Platform) CollectLeafCLI(b *testing.B) {
	leaf, _ := p.Generated(b)
	cfg := labcheck.ClientConfig(b, labtest.StartSSH(b, leaf.Device, "admin"), "admin")
	cfg.Allowlist = p.Collector.Allowlist()
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		s, err := cli.DialPlatform(b.Context(), cfg, p.Collector)
		if err != nil {
			b.Fatal(err)
		}
		dev := &topology.Device{Name: leaf.Name}
		if err := p.Collector.Collect(b.Context(), s, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// ParseLeaf benchmarks the collector's share of that collection alone: the leaf's answers
// recorded once, then replayed by command, so what is measured is the auditor's parsing and
// fact building, not the emulator's rendering.
func (p Platform) ParseLeaf(b *testing.B) {
	leaf, _ := p.Generated(b)
	r := p.record(b, leaf)
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		dev := &topology.Device{Name: leaf.Name, Platform: p.Collector.Name(), Role: topology.RoleSwitch}
		if err := p.Collector.Collect(context.Background(), r, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
			b.Fatal(err)
		}
	}
}

// replay answers each command with what the device answered when recorded.
type replay map[string]collectors.Output

func (r replay) Run(_ context.Context, cmd string) (collectors.Output, error) {
	out, ok := r[cmd]
	if !ok {
		return collectors.Output{}, fmt.Errorf("%q was not recorded", cmd)
	}
	return out, nil
}

// record collects d once, keeping every answer.
func (p Platform) record(tb testing.TB, d lab.Emulated) replay {
	tb.Helper()
	var mu sync.Mutex
	r := replay{}
	dev := &topology.Device{Name: d.Name, Platform: p.Collector.Name(), Role: topology.RoleSwitch}
	run := recorder{labcheck.ExecRunner{Dev: d.Device, Allow: p.Collector.Allowlist()}, func(cmd string, out collectors.Output) {
		mu.Lock()
		defer mu.Unlock()
		r[cmd] = out
	}}
	if err := p.Collector.Collect(context.Background(), run, inventory.DeviceSpec{Name: d.Name}, dev); err != nil {
		tb.Fatal(err)
	}
	return r
}

type recorder struct {
	r    collectors.Runner
	keep func(string, collectors.Output)
}

func (r recorder) Run(ctx context.Context, cmd string) (collectors.Output, error) {
	out, err := r.r.Run(ctx, cmd)
	if err == nil {
		r.keep(cmd, out)
	}
	return out, err
}
