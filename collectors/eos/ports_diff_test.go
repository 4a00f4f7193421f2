package eos

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sourcesOf parses the fixture scenario's replies as Collect does.
func sourcesOf(t testing.TB, r *fakeRunner) *sources {
	s, err := readSources(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// buildPort, with its memo, builds exactly the ports buildPortRef built, port after port of
// every fixture scenario (the memo carried from one port to the next), also without PFC
// counters, or with odd traffic maps.
func TestBuildPortAgreesWithReference(t *testing.T) {
	for _, scenario := range []string{"healthy", "broken", "portchannel"} {
		for variant, noPFC := range []bool{false, true, false} {
			got, want := sourcesOf(t, &fakeRunner{Scenario: scenario}), sourcesOf(t, &fakeRunner{Scenario: scenario})
			if noPFC {
				got.pfcErr, want.pfcErr = errors.New("refused"), errors.New("refused")
			}
			if variant == 2 { // traffic maps without a traffic counter, and no pause counters
				for _, s := range []*sources{got, want} {
					for n, it := range s.ifaces {
						it.Traffic, it.HasPauseCounter = map[string]int64{"other": 1}, false
						s.ifaces[n] = it
					}
				}
			}
			names := []string{"Ethernet99"}
			for n := range want.ifaces {
				names = append(names, n)
			}
			if want.cfg != nil {
				for n := range want.cfg.Interfaces {
					names = append(names, n)
				}
			}
			seen := map[string]bool{}
			for _, n := range names {
				if seen[n] {
					continue
				}
				seen[n] = true
				g, w := buildPort(n, got), buildPortRef(n, want)
				if !reflect.DeepEqual(g, w) {
					t.Errorf("%s %s (no PFC counters %v):\n%s", scenario, n, noPFC, cmp.Diff(w, g))
				}
			}
		}
	}
}

// lineExcerpt keeps what lineExcerptRef kept.
func FuzzLineExcerptAgreesWithReference(f *testing.F) {
	f.Add("interface Ethernet1\n   qos trust dscp\n   service-profile X\n  \n", "qos trust")
	f.Add("\n\n   priority-flow-control on\nchannel-group 1 mode active", "priority-flow-control")
	f.Add(strings.Repeat("   tx-queue 3\n", 80), "tx-queue")
	f.Fuzz(func(t *testing.T, text, match string) {
		lines := strings.Split(text, "\n")
		for _, m := range [][]string{nil, {match}, {match, "tx-queue", ""}} {
			if g, w := lineExcerpt(lines, m...), lineExcerptRef(lines, m...); g != w {
				t.Errorf("%q %q: got %q, want %q", lines, m, g, w)
			}
		}
	})
}
