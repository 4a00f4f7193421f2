package topology

import (
	"os"
	"testing"
)

// BenchmarkResolveLinks resolves the links of the snapshot ROCEAUDIT_BENCH_SNAPSHOT names: a
// serial step at the start of every check run, before the devices are judged on every core.
func BenchmarkResolveLinks(b *testing.B) {
	path := os.Getenv("ROCEAUDIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("ROCEAUDIT_BENCH_SNAPSHOT not set")
	}
	snap, err := OpenSnapshot(path, ReadOptions{CheckedCounters: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ResolveLinksAndChecks(snap)
	}
}
