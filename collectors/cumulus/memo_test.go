package cumulus

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
	"github.com/roceaudit/roceaudit/topology"
)

// The per-port memo changes no fact, in RoCE mode (healthy) and the generic regime
// (broken), on a first reading and on one answered from the memo; and what a port keeps is
// its own (changing one port's maps changes no later port's).
func TestPortMemoChangesNothing(t *testing.T) {
	ctx := context.Background()
	for _, scenario := range []string{"healthy", "broken"} {
		roce, err := ParseRoCE(fixturerunner.MustRead(t, fixtures{}, scenario, CmdRoCE))
		if err != nil {
			t.Fatal(err)
		}
		roceEv := topology.Evidence{Command: CmdRoCE}
		ports := []string{"swp1", "swp2", "swp51", "swp52"}
		want := map[string]*topology.SwitchPort{}
		for _, name := range ports {
			want[name] = collectPort(ctx, &nvReader{r: &fakeRunner{Scenario: scenario}}, name, roce, roceEv)
		}
		memo := &portMemo{}
		for pass := range 2 {
			for _, name := range ports {
				got := collectPort(ctx, &nvReader{r: &fakeRunner{Scenario: scenario}, memo: memo}, name, roce, roceEv)
				if d := cmp.Diff(want[name], got); d != "" {
					t.Errorf("%s %s pass %d: the memo changed the facts (-unremembered +remembered):\n%s", scenario, name, pass, d)
				}
				// scribble on what the port keeps
				for _, m := range []map[int]int{got.DSCPToTC.Value, got.TCToQueue.Value} {
					if m != nil {
						m[99] = 99
					}
				}
				if got.Scheduler.Value != nil {
					got.Scheduler.Value[99] = "x"
				}
				if got.ECN.Value != nil {
					got.ECN.Value[99] = true
				}
				if got.PFCWatchdog.Value != nil {
					got.PFCWatchdog.Value[99] = true
				}
				if got.Counters.Value != nil {
					got.Counters.Value["x"] = 1
				}
			}
		}
	}
}
