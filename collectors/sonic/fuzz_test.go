package sonic

import (
	"testing"

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
