package cumulus

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// BenchmarkPortParsers times each per-port parser on a healthy port's output: what a leaf
// pays ~250 times a collection (go test -bench PortParsers -benchmem ./collectors/cumulus).
func BenchmarkPortParsers(b *testing.B) {
	read := func(cmd string) string { return fixturerunner.MustRead(b, fixtures{}, "healthy", cmd) }
	counters := read("nv show interface swp1 counters qos -o json")
	stats := read("nv show interface swp1 link stats -o json")
	link := read("nv show interface swp1 link")
	pause := read("nv show interface swp1 qos link-pause")
	wd := read("nv show interface swp1 qos pfc-watchdog")
	lldp := read("nv show interface lldp -o json")
	for _, bm := range []struct {
		name string
		f    func() error
	}{
		{"CountersQoSJSON", func() error { _, err := ParseCountersQoSJSON(counters); return err }},
		{"LinkStatsJSON", func() error { _, err := ParseLinkStatsJSON(stats); return err }},
		{"Link", func() error { _, err := ParseLink(link); return err }},
		{"LinkPause", func() error { _, _, err := ParseLinkPause(pause); return err }},
		{"PFCWatchdog", func() error { _, _, err := ParsePFCWatchdog(wd); return err }},
		{"InterfaceLLDPJSON", func() error { _, err := ParseInterfaceLLDPJSON(lldp); return err }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bm.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountersReaders compares the counters' three readers on one healthy port.
func BenchmarkCountersReaders(b *testing.B) {
	out := fixturerunner.MustRead(b, fixtures{}, "healthy", "nv show interface swp1 counters qos -o json")
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			countersQoSFast(out)
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			countersQoSScan(out)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = countersQoSDecode(out)
		}
	})
}
