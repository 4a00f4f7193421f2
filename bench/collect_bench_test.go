package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/cli"
	"github.com/roceaudit/roceaudit/collectors/platforms"
	"github.com/roceaudit/roceaudit/collectors/sshclient"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/lab"
)

// BenchmarkCollectOverSSH is the collect path of an audit, in-process, over SSH: a generated
// lab (64 hosts, 4 leaves, 2 spines) collected at --concurrency 16 per op. The lab serves in
// the same process, so read the auditor's share of a profile with
// -focus 'collectors|topology' and the lab's with -focus 'lab/':
//
//	go test -run '^$' -bench CollectOverSSH -benchtime 3x -cpuprofile cpu.out ./bench
//	go tool pprof -top -cum -focus 'roceaudit/collectors' cpu.out
//
// Lessons of the profiles: see the notes at the top of scale_test.go.
func BenchmarkCollectOverSSH(b *testing.B) {
	dir := b.TempDir()
	l, err := lab.Start(context.Background(), lab.Options{Generate: &lab.Generate{Hosts: 64, Leaves: 4, Spines: 2}, Dir: filepath.Join(dir, "lab")})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	reg := platforms.Registry()
	inv, err := inventory.Open(l.InventoryPath, reg)
	if err != nil {
		b.Fatal(err)
	}
	dialer := cli.NewMultiDialer(sshclient.NewDialer(false), cli.Dialer{Platforms: reg}, reg.Interactive)
	b.ReportAllocs()
	for b.Loop() {
		snap, err := collectors.Collect(context.Background(), inv, reg, dialer, collectors.Options{Concurrency: 16})
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range snap.Devices {
			if d.Error != "" {
				b.Fatalf("%s: %s", d.Name, d.Error)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(inv.Devices))/1000, "wall-ms/device")
}
