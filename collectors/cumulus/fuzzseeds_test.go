package cumulus

// Small fuzz seeds: miniatures of this package's recorded replies (see fuzzseed).

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/collectors/internal/fuzzseed"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

func addSeeds(f *testing.F, seeds ...string) { fuzzseed.Add(f, seeds...) }

// jsonMinis are the miniatures of every recorded JSON reply (fixtures/cumulus/verbatim,
// healthy and broken), its collections cut to two members, and their variants.
func jsonMinis(t testing.TB) []string {
	var seeds []string
	variants := map[string]bool{}
	kind := func(s string) string { // the first key
		k, _, _ := strings.Cut(strings.TrimLeft(s, "{ \t\r\n"), ":")
		return k
	}
	for _, s := range fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken") {
		if !json.Valid([]byte(s)) {
			continue
		}
		m := fuzzseed.MiniJSON(s, 2, 0)
		if !json.Valid([]byte(m)) {
			t.Fatalf("the miniature is not JSON: %q", m)
		}
		seeds = append(seeds, m, fuzzseed.MiniJSON(s, 1, 0))
		if !variants[kind(s)] { // the edge cases of the first reply of each kind only
			variants[kind(s)] = true
			seeds = append(seeds, fuzzseed.JSONVariants(m, 25)...)
		}
	}
	if len(seeds) == 0 {
		t.Fatal("no recorded JSON reply")
	}
	return seeds
}

// smallFirst adds the JSON miniatures, then every recorded reply whole (text ones too), then
// extra, shortest first.
func smallFirst(f *testing.F, extra ...string) {
	seeds := append(jsonMinis(f), fixturerunner.Seeds(fixtures{}, "verbatim", "healthy", "broken")...)
	addSeeds(f, append(seeds, extra...)...)
}

// The miniatures are small, and still what the fast paths read.
func TestMiniSeeds(t *testing.T) {
	read := map[string]bool{}
	for _, s := range jsonMinis(t) {
		if _, ok := countersQoSFast(s); ok {
			read["counters fast"] = true
		}
		if _, ok := countersQoSScan(s); ok {
			read["counters scan"] = true
		}
		if _, ok := linkStatsScan(s); ok {
			read["link stats"] = true
		}
		if _, ok := interfaceLLDPScan(s); ok && strings.Contains(s, "swp") {
			read["lldp"] = true
		}
		if len(s) > 4096 {
			t.Errorf("a miniature of %d bytes", len(s))
		}
	}
	if len(read) != 4 {
		t.Errorf("the fast paths read miniatures: %v", read)
	}
}
