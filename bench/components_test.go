package bench

// Go benchmarks of the parts the scale run's profiles point at, on real transcripts: a
// generated lab (all four switch platforms) is collected once, in-process, over SSH.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sonic"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
	"github.com/roceaudit/roceaudit/topology"
)

var (
	fabricOnce sync.Once
	fabric     *topology.Snapshot
	fabricErr  error
)

// collectedFabric is a snapshot of a 64-host generated lab, transcripts kept.
func collectedFabric(b *testing.B) *topology.Snapshot {
	b.Helper()
	fabricOnce.Do(func() {
		dir, err := mkdirTemp()
		if err != nil {
			fabricErr = err
			return
		}
		defer os.RemoveAll(dir)
		l, err := lab.Start(context.Background(), lab.Options{Generate: &lab.Generate{Hosts: 64, Leaves: 4, Spines: 2}, Dir: filepath.Join(dir, "lab")})
		if err != nil {
			fabricErr = err
			return
		}
		defer l.Close()
		reg := platforms.Registry()
		inv, err := inventory.Open(l.InventoryPath, reg)
		if err != nil {
			fabricErr = err
			return
		}
		dialer := cli.NewMultiDialer(sshclient.NewDialer(false), cli.Dialer{Platforms: reg}, reg.Interactive)
		fabric, fabricErr = collectors.Collect(context.Background(), inv, reg, dialer, collectors.Options{Concurrency: 16})
	})
	if fabricErr != nil {
		b.Fatal(fabricErr)
	}
	return fabric
}

// outputs are the stdout of every exchange of cmd (or of every switch exchange for "").
func outputs(s *topology.Snapshot, cmd string, role topology.Role) []string {
	var out []string
	for _, d := range s.Devices {
		if d.Role != role {
			continue
		}
		for _, ex := range d.Transcript {
			if cmd == "" || ex.Command == cmd {
				out = append(out, ex.Stdout)
			}
		}
	}
	return out
}

func benchOver(b *testing.B, inputs []string, f func(string)) {
	b.Helper()
	if len(inputs) == 0 {
		b.Fatal("no input in the collected fabric")
	}
	n := 0
	for _, in := range inputs {
		n += len(in)
	}
	b.SetBytes(int64(n))
	b.ResetTimer()
	for b.Loop() {
		for _, in := range inputs {
			f(in)
		}
	}
}

// Redaction of every switch answer of the fabric (what collect does to each).
func BenchmarkRedactSwitchTranscripts(b *testing.B) {
	benchOver(b, outputs(collectedFabric(b), "", topology.RoleSwitch), func(s string) { _ = collectors.Redact(s) })
}

func BenchmarkParseIPAddr(b *testing.B) {
	benchOver(b, outputs(collectedFabric(b), "ip -d -j addr show", topology.RoleHost), func(s string) {
		if _, err := linux.ParseIPAddr(s); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkParseIbvDevinfo(b *testing.B) {
	benchOver(b, outputs(collectedFabric(b), "ibv_devinfo -v", topology.RoleHost), func(s string) {
		if _, err := linux.ParseIbvDevinfo(s); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkParseSONiCRunningConfig(b *testing.B) {
	benchOver(b, outputs(collectedFabric(b), sonic.CmdRunningConfig, topology.RoleSwitch), func(s string) {
		if _, err := sonic.ParseRunningConfig(s); err != nil {
			b.Fatal(err)
		}
	})
}

// The check engine over the whole fabric, remediation included.
func BenchmarkCheckEngine(b *testing.B) {
	s := collectedFabric(b)
	reg := platforms.Registry()
	b.ReportMetric(float64(len(s.Devices)), "devices")
	b.ResetTimer()
	for b.Loop() {
		if len(checks.Run(s, checks.Options{Remedy: reg.Remedy})) == 0 {
			b.Fatal("no result")
		}
	}
}

func BenchmarkSnapshotWrite(b *testing.B) {
	s := collectedFabric(b)
	for _, gz := range []bool{false, true} {
		b.Run(map[bool]string{false: "json", true: "gzip"}[gz], func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := topology.WriteSnapshotFile(&buf, gz, s, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}

// Reading for a check (facts only) and in full (transcripts), plain and compressed.
func BenchmarkSnapshotRead(b *testing.B) {
	s := collectedFabric(b)
	for _, gz := range []bool{false, true} {
		var buf bytes.Buffer
		if err := topology.WriteSnapshotFile(&buf, gz, s, nil); err != nil {
			b.Fatal(err)
		}
		for _, full := range []bool{false, true} {
			name := map[bool]string{false: "json", true: "gzip"}[gz] + map[bool]string{false: "/facts", true: "/transcripts"}[full]
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(buf.Len()))
				for b.Loop() {
					if _, err := topology.ReadSnapshot(bytes.NewReader(buf.Bytes()), topology.ReadOptions{Transcripts: full}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// What `check SNAPSHOT.json.gz` does, in-process: read the compressed snapshot (facts only)
// and run the catalog with remediation. Its profile (go test -cpuprofile) is the offline
// path's; the scale run's 1k and 10k snapshots can be profiled the same way.
func BenchmarkCheckSnapshotFile(b *testing.B) {
	s := collectedFabric(b)
	reg := platforms.Registry()
	var buf bytes.Buffer
	if err := topology.WriteSnapshotFile(&buf, true, s, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportMetric(float64(len(s.Devices)), "devices")
	b.ResetTimer()
	for b.Loop() {
		snap, err := topology.ReadSnapshot(bytes.NewReader(buf.Bytes()), topology.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(checks.Run(snap, checks.Options{Remedy: reg.Remedy})) == 0 {
			b.Fatal("no result")
		}
	}
}
