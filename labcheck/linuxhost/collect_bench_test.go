package linuxhost

import (
	"context"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/linux"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/labcheck"
	"github.com/roceaudit/roceaudit/topology"
)

// BenchmarkCollectGPUHost is one generated host's collection in one process: the Linux
// collector's commands answered by the emulator's Exec (no SSH), so its CPU profile holds
// both the lab's share (rendering and globbing the emulated sysfs) and the auditor's
// (building commands, parsing, evidence):
//
//	go test -run '^$' -bench CollectGPUHost -benchtime 200x -cpuprofile cpu.out ./labcheck/linuxhost
//	go tool pprof -top -cum cpu.out
//
// Lessons of the profiles:
//   - The lab's glob matched every emulated file and directory with path.Match (the GID
//     table's 3 x 256 slots, 32 hw_counters per port, ...) for every glob word: ~10% of a
//     1,000-device audit. The vfs now walks the pattern one path element at a time over a
//     directory index, matching only the children of the directories reached.
func BenchmarkCollectGPUHost(b *testing.B) { benchCollect(b, linuxhost.NewGPUHost("gpu01", 1)) }

// BenchmarkCollectRailHost is the same for an 8-rail host (--generate ...,rails=8): eight
// RoCE ports, so eight GID tables and eight of every per-port command.
func BenchmarkCollectRailHost(b *testing.B) { benchCollect(b, linuxhost.NewRailHost("gpu01", 1, 8)) }

func benchCollect(b *testing.B, h *linuxhost.Host) {
	p := linux.Descriptor()
	r := labcheck.ExecRunner{Dev: h, Allow: p.Allowlist()}
	b.ReportAllocs()
	for b.Loop() {
		d := &topology.Device{Name: h.Name, Platform: "linux", Role: topology.RoleHost, Reachable: true}
		if err := p.Collect(context.Background(), r, inventory.DeviceSpec{Name: h.Name}, d); err != nil {
			b.Fatal(err)
		}
	}
}
