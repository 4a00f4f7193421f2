package nxos

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
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
// every fixture scenario (the memo carried from one port to the next), and of each scenario
// without a port's or any queue counters, and with every policy missing or none attached.
func TestBuildPortAgreesWithReference(t *testing.T) {
	for _, scenario := range []string{"healthy", "broken", "aiml", "portchannel"} {
		for variant, noQueues := range []bool{false, true, false, false, false} {
			got, want := sourcesOf(t, &fakeRunner{Scenario: scenario}), sourcesOf(t, &fakeRunner{Scenario: scenario})
			if noQueues {
				delete(got.queues, "Ethernet1/1")
				delete(want.queues, "Ethernet1/1")
			}
			if variant == 2 { // no queue counters at all, no pause counters, odd traffic maps
				for _, s := range []*sources{got, want} {
					s.queues, s.queuesErr = nil, errors.New("refused")
					for n, it := range s.ifaces {
						it.Traffic, it.HasPauseCounter = map[string]int64{"other": 1}, false
						s.ifaces[n] = it
					}
				}
			}
			if variant >= 3 && want.cfg != nil { // every policy missing, then none attached
				policy := map[int]string{3: "MISSING", 4: ""}[variant]
				for _, s := range []*sources{got, want} {
					s.cfg.SystemQoSInput, s.cfg.SystemQueuingOutput, s.cfg.SystemNetworkQoS = policy, policy, policy
					for _, iq := range s.cfg.Interfaces {
						iq.QoSInput, iq.QueuingOutput = "", ""
					}
					for _, iq := range s.cfg.PortChannels {
						iq.QoSInput, iq.QueuingOutput = "", ""
					}
				}
			}
			names := []string{"Ethernet1/99"}
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
					t.Errorf("%s %s (no queues %v):\n%s", scenario, n, noQueues, cmp.Diff(w, g))
				}
			}
		}
	}
}

// ethSpeedOf reads what the regular expression read.
func FuzzSpeedAgreesWithReference(f *testing.F) {
	for _, s := range []string{"100 Gb/s", "40Gb/s", "1000 Mb/s", "1.6 Tb/s", "auto-speed", "1. Gb/s", ".5 Gb/s", "0 Gb/s", "1  Gb/s", "1 Gb/s ", "1 Kb/s", "1e3 Gb/s", "", "٣ Gb/s"} {
		f.Add(s, "up", int64(0))
	}
	f.Fuzz(func(t *testing.T, speed, state string, bw int64) {
		i := Interface{Name: "Ethernet1/1", EthSpeed: speed, State: state, BWKbit: bw}
		g, gex, gerr := i.Speed()
		w, wex, werr := i.speedRef()
		if g != w || gex != wex || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("%q: got %v %q %v, want %v %q %v", speed, g, gex, gerr, w, wex, werr)
		}
	})
}

// portMemo.excerpt is switchcollect.Excerpt of the two texts joined.
func FuzzExcerptAgreesWithSwitchcollect(f *testing.F) {
	f.Add(" interface Ethernet1/1\n", "\nsystem qos\n", 800)
	f.Add(strings.Repeat("x", 700), strings.Repeat("é", 100)+" \n\t", 800)
	f.Add("\u00a0a", "b\u2003", 1)
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		if max < 0 || max > 4096 {
			return
		}
		var m portMemo
		for range 2 { // the scratch buffer reused
			if got, want := m.excerpt(a, b, max), switchcollect.Excerpt(a+b, max); got != want {
				t.Fatalf("%q + %q, %d: got %q, want %q", a, b, max, got, want)
			}
		}
	})
}
