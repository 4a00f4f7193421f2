package topology

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/roceaudit/roceaudit/internal/benchcpu"
)

// BenchmarkDecodeDevices decodes, with one planned decoder as each of check's two reading
// workers does, every other device line of the snapshot ROCEAUDIT_BENCH_SNAPSHOT names (of
// the 10,000-device lab snapshot: 5,000 devices, ~260 MB of JSON): the decoder alone,
// without gunzip, line cutting or the other worker. cpu-ns/op is the process's CPU time (GC
// included), steadier than wall time on a machine shared with other benchmarks.
func BenchmarkDecodeDevices(b *testing.B) {
	path := os.Getenv("ROCEAUDIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("ROCEAUDIT_BENCH_SNAPSHOT not set")
	}
	lines := sampleDeviceLines(b, path, 2)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		dec := newPlanDecoder(ReadOptions{CheckedCounters: true})
		for _, l := range lines {
			var d Device
			if err := dec.decodeDevice(l, &d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// sampleDeviceLines returns every nth device line of a line-oriented snapshot file.
func sampleDeviceLines(b *testing.B, path string, nth int) [][]byte {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := Gunzipped(f)
	if err != nil {
		b.Fatal(err)
	}
	br := bufio.NewReaderSize(r, 1<<20)
	if _, err := br.ReadSlice('\n'); err != nil { // the header
		b.Fatal(err)
	}
	var lines [][]byte
	for i := 0; ; i++ {
		line, err := br.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 && line[0] == ']' {
			return lines
		}
		if i%nth == 0 {
			lines = append(lines, bytes.TrimPrefix(line, []byte(",")))
		}
	}
}
