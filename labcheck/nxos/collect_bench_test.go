package nxoscheck

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/roceaudit/roceaudit/collectors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/cli"
	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

var updateGenerated = flag.Bool("update-generated", false, "rewrite testdata/generated.json.gz from this collector")

// generated are the NX-OS switches of the benchmarks' generated fabric
// (hosts=960,leaves=32,spines=8,rails=8, a 1,000-device audit with 8-rail hosts): its
// 248-port leaf and its 32-port spine.
func generated(tb testing.TB) (leaf, spine lab.Emulated) {
	tb.Helper()
	devs, _, err := lab.Emulate(lab.Options{Generate: &lab.Generate{Hosts: 960, Leaves: 32, Spines: 8, Rails: 8}}, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range devs {
		switch d.Name {
		case "leaf4":
			leaf = d
		case "spine4":
			spine = d
		}
	}
	if leaf.Platform != "nxos" || spine.Platform != "nxos" {
		tb.Fatalf("leaf4 is %q, spine4 %q: the generated fabric's platforms moved", leaf.Platform, spine.Platform)
	}
	return leaf, spine
}

// TestGeneratedFactsUnchanged is the differential guard of the parsers' optimisations: the
// generated leaf and spine collect to exactly the facts recorded in testdata (evidence,
// excerpts and errors included). -update-generated records them again, for a change that
// means to alter facts.
func TestGeneratedFactsUnchanged(t *testing.T) {
	leaf, spine := generated(t)
	got := map[string]*topology.SwitchFacts{
		leaf.Name:  labcheck.Collect(t, nxoscol.Descriptor(), leaf.Device, leaf.Switch),
		spine.Name: labcheck.Collect(t, nxoscol.Descriptor(), spine.Device, spine.Switch),
	}
	file := filepath.Join("testdata", "generated.json.gz")
	if *updateGenerated {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		enc := json.NewEncoder(zw)
		enc.SetIndent("", " ")
		if err := enc.Encode(got); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]*topology.SwitchFacts
	if err := json.NewDecoder(zr).Decode(&want); err != nil {
		t.Fatal(err)
	}
	// Through JSON, as a snapshot holds them: what the guard compares is what is written.
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var gotRT map[string]*topology.SwitchFacts
	if err := json.Unmarshal(b, &gotRT); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, gotRT); d != "" {
		t.Errorf("generated switches' facts changed (-recorded +collected):\n%s", d)
	}
}

// TestGeneratedLeafOverCLI collects the generated leaf as the audit does, through the
// interactive CLI: the same facts as the exec collection (large replies, the queuing JSON
// of every port, come back intact through the CLI transport).
func TestGeneratedLeafOverCLI(t *testing.T) {
	leaf, _ := generated(t)
	p := nxoscol.Descriptor()
	viaCLI := labcheck.CollectOverCLI(t, p, labtest.StartSSH(t, leaf.Device, "admin"), leaf.Name)
	viaExec := labcheck.Collect(t, p, leaf.Device, leaf.Switch)
	if d := cmp.Diff(viaExec, viaCLI); d != "" {
		t.Errorf("the CLI collection differs from exec (-exec +cli):\n%s", d)
	}
}

// BenchmarkCollectGeneratedLeaf is one collection of the generated 248-port NX-OS leaf in one
// process: the collector's commands answered by the emulator's Exec (no SSH), so the profile
// holds the emulator's share beside the collector's (-focus collectors/ to see the latter):
//
//	go test -run '^$' -bench CollectGeneratedLeaf -cpuprofile cpu.out ./labcheck/nxos
//	go tool pprof -top -cum -focus 'collectors/' cpu.out
func BenchmarkCollectGeneratedLeaf(b *testing.B) {
	leaf, _ := generated(b)
	p := nxoscol.Descriptor()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		labcheck.Collect(b, p, leaf.Device, leaf.Switch)
	}
}

// BenchmarkCollectGeneratedLeafCLI is the same collection as the audit makes it: dialled over
// SSH to the emulator, through roceaudit's interactive CLI transport (scrapligo), one session
// per collection. The NX-OS CLI takes one command per request, so each is a prompt-delimited
// reply scrapligo reads and searches:
//
//	go test -run '^$' -bench CollectGeneratedLeafCLI -cpuprofile cpu.out ./labcheck/nxos
func BenchmarkCollectGeneratedLeafCLI(b *testing.B) {
	leaf, _ := generated(b)
	p := nxoscol.Descriptor()
	cfg := labcheck.ClientConfig(b, labtest.StartSSH(b, leaf.Device, "admin"), "admin")
	cfg.Allowlist = p.Allowlist()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		s, err := cli.DialPlatform(b.Context(), cfg, p)
		if err != nil {
			b.Fatal(err)
		}
		dev := &topology.Device{Name: leaf.Name}
		if err := p.Collect(b.Context(), s, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkParseGeneratedLeaf is the collector's share of that collection alone: the leaf's
// answers recorded once, then replayed by command, so what is measured is the auditor's
// parsing and fact building, not the emulator's rendering:
//
//	go test -run '^$' -bench ParseGeneratedLeaf -cpuprofile cpu.out ./labcheck/nxos
func BenchmarkParseGeneratedLeaf(b *testing.B) {
	leaf, _ := generated(b)
	p := nxoscol.Descriptor()
	r := record(b, p, leaf)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		dev := &topology.Device{Name: leaf.Name, Platform: p.Name(), Role: topology.RoleSwitch}
		if err := p.Collect(context.Background(), r, inventory.DeviceSpec{Name: leaf.Name}, dev); err != nil {
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
func record(tb testing.TB, p *collectors.Descriptor, d lab.Emulated) replay {
	tb.Helper()
	var mu sync.Mutex
	r := replay{}
	dev := &topology.Device{Name: d.Name, Platform: p.Name(), Role: topology.RoleSwitch}
	run := recorder{labcheck.ExecRunner{Dev: d.Device, Allow: p.Allowlist()}, func(cmd string, out collectors.Output) {
		mu.Lock()
		defer mu.Unlock()
		r[cmd] = out
	}}
	if err := p.Collect(context.Background(), run, inventory.DeviceSpec{Name: d.Name}, dev); err != nil {
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

// reportCPU, deferred at the start of the timed loop, reports the process's user+system CPU
// per collection (cpu-ns/op): the emulator's, the SSH server's and the GC's included, which
// wall time (ns/op) hides when a session waits on its peer or the GC runs on the other core.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}
