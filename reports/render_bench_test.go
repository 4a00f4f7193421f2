package reports

import (
	"fmt"
	"io"
	"testing"
)

// BenchmarkRenderScaling renders every format for a report of 1,000 and of 4,000 devices:
// ns/result should not grow with the fabric. Profile lessons (10,000-device check): the
// HTML drawing scanned every result per node and per link, and its matrix looked each
// result's device up in a list (hours, then 36 s, now 16 s); the Prometheus escaper was
// built per label value (56 s -> 5 s); the text report's causes and groups copied and
// stably sorted a million Results (6.1 -> 3.1 s with sanitizing that shares clean results).
func BenchmarkRenderScaling(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		r := largeReport(n)
		seen := map[string]bool{}
		for _, res := range r.Results {
			if !seen[res.Device] {
				seen[res.Device] = true
				r.Devices = append(r.Devices, DeviceSummary{Name: res.Device, Reachable: true})
			}
		}
		for _, format := range Formats() {
			rend, err := Lookup(format)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/devices=%d", format, n), func(b *testing.B) {
				for b.Loop() {
					if err := rend.Render(io.Discard, r, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(r.Results)), "ns/result")
			})
		}
	}
}
