package main

// Benchmarks of the cobra root against generated labs (a generated Clos of any size). Each starts its lab once, outside the timer; `make bench` runs them.

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab"
)

// benchLab starts a generated lab for the whole benchmark and returns its inventory.
func benchLab(b *testing.B, g lab.Generate) *lab.Lab {
	b.Helper()
	l, err := lab.Start(context.Background(), lab.Options{Generate: &g, Dir: filepath.Join(b.TempDir(), "lab")})
	if err != nil {
		b.Fatalf("lab: %v", err)
	}
	b.Cleanup(func() { _ = l.Close() })
	return l
}

// benchMain runs roceaudit args b.N times and fails on any exit code but 0.
func benchMain(b *testing.B, l *lab.Lab, args ...string) {
	b.Helper()
	b.ReportMetric(float64(len(l.Devices)), "devices")
	b.ResetTimer()
	for b.Loop() {
		var errb bytes.Buffer
		if code := Main(context.Background(), args, strings.NewReader(""), io.Discard, &errb); code != exitOK {
			b.Fatalf("%q: exit %d: %s", args, code, errb.String())
		}
	}
}

// A whole-fabric audit of 32 dual-port hosts, 4 leaves and 2 spines (38 devices, 64 host
// ports, 72 switch ports), report rendered as JSON.
func BenchmarkAuditGenerated32Hosts(b *testing.B) {
	l := benchLab(b, lab.Generate{Hosts: 32, Leaves: 4, Spines: 2})
	benchMain(b, l, "audit", "-i", l.InventoryPath, "--format", "json", "--quiet")
}

// One path query on 256 hosts, 16 leaves and 4 spines (276 devices): `path` collects the
// whole fabric to resolve the equal-cost paths, so this is collection at scale.
func BenchmarkPathGenerated256Hosts(b *testing.B) {
	g := lab.Generate{Hosts: 256, Leaves: 16, Spines: 4}
	l := benchLab(b, g)
	p := g.Paths()[0]
	benchMain(b, l, "path", "-i", l.InventoryPath, p[0], p[1], "--format", "json")
}
