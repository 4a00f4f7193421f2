package sonic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// seedAll adds every fixture file as a seed: the fuzzers start from real output.
func seedAll(f *testing.F) { fixturerunner.SeedDirs(f, fixtures{}, "verbatim", "healthy", "broken") }

// A parser may reject input, never panic; whatever CONFIG_DB it accepts, every derivation
// must return a value or an error for every port.
func FuzzParseRunningConfig(f *testing.F) {
	seedAll(f)
	f.Add(edgeDB)
	f.Fuzz(func(t *testing.T, out string) {
		db, err := ParseRunningConfig(out)
		if err != nil {
			return
		}
		for port := range db.Tables["PORT"] {
			_, _, _ = PortMTU(db, port)
			_, _, _ = PortTrust(db, port)
			_, _, _ = PortDSCPToTC(db, port)
			_, _, _ = PortTCToQueue(db, port)
			_, _, _ = PortPFC(db, port)
			_, _, _ = PortPFCWatchdog(db, port)
			_, _, _ = PortECN(db, port)
			_, _, _ = PortScheduler(db, port)
			_, _, _ = PortBuffer(db, port)
		}
	})
}

func FuzzParseTextOutputs(f *testing.F) {
	seedAll(f)
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = ParseLLDPTable(out)
		_, _ = ParsePFCCounters(out)
		_, _ = ParseQueueCounters(out)
		_, _ = ParseVersion(out)
	})
}

// The running configuration's scan reads exactly what encoding/json reads, or declines.
func FuzzScanRunningConfig(f *testing.F) {
	smallFirst(f, true,
		edgeDB,
		`{"PORT":{"Ethernet0":{"mtu":"9100","lanes":["1","2"],"x":1,"mtu":"\u0039"}},"bgpraw":"x","A":{"k":{}}}`,
		`{"PORT":{"Ethernet0":{}},"PORT":{"Ethernet4":{"a":"b"}}} trailing`, `{"PORT":{"E":{"a":"b"},"E":{"c":"d"}}}`,
		`{"PORT":{"E":null}}`, `{"PORT":{"E":{}},"QUEUE":"x"}`, `{"PORT":{"E":{}},"OTHER":[1]}`, `{"asic0":{"PORT":{"E":{}}}}`,
		"{\"PORT\":{\"E\":{\"a\":\"\xff\"}}}",
	)
	f.Fuzz(func(t *testing.T, out string) {
		got, ok := scanRunningConfig(out)
		if !ok {
			return
		}
		want, err := decodeRunningConfig(out)
		if err != nil {
			t.Fatalf("the scan read %v where the decoder fails: %v", got.Tables, err)
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(ConfigDB{})); d != "" {
			t.Fatalf("scan and decoder differ (-decoder +scan):\n%s", d)
		}
	})
}
