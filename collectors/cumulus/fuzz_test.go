package cumulus

import (
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// seedAll adds every fixture file as a seed: the fuzzers start from real output.
func seedAll(f *testing.F) { fixturerunner.SeedDirs(f, fixtures{}, "verbatim", "healthy", "broken") }

// Every parser may reject input, never panic.
func FuzzParsers(f *testing.F) {
	seedAll(f)
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = ParseRoCE(out)
		_, _ = ParseRoCEStatus(out)
		_, _ = ParseInterfaceLLDP(out)
		_, _ = ParseLink(out)
		_, _ = ParseMapping(out)
		_, _, _ = ParseEgressQueueMapping(out)
		_, _, _ = ParseEgressScheduler(out)
		_, _, _ = ParseCongestionControl(out)
		_, _ = ParsePFC(out)
		_, _, _ = ParseLinkPause(out)
		_, _, _ = ParsePFCWatchdog(out)
		_, _ = ParseCountersQoS(out)
		_, _ = ParseSystem(out)
	})
}

// The JSON parsers may reject input, never panic.
func FuzzJSONParsers(f *testing.F) {
	seedAll(f)
	f.Add(`{"swp1":{"type":"swp","lldp":{"neighbor":{"a":{"chassis":{"system-name":"a"},"port":{"name":"p"}}}}}}`)
	f.Add(`{"egress-queue-stats":{"3":{"tx-frames":"1","tx-bytes":2}}}`)
	f.Fuzz(func(t *testing.T, out string) {
		_, _ = ParseInterfaceLLDPJSON(out)
		_, _ = ParseCountersQoSJSON(out)
	})
}
