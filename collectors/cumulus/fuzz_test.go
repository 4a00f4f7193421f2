package cumulus

import (
	"os"
	"path/filepath"
	"testing"
)

// seedAll adds every fixture file as a seed: the fuzzers start from real output.
func seedAll(f *testing.F) {
	for _, dir := range []string{"verbatim", "healthy", "broken"} {
		files, _ := filepath.Glob(filepath.Join(fixtureRoot, dir, "*"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(string(b))
			}
		}
	}
}

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
