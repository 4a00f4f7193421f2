package nxos

import (
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/roceaudit/roceaudit/lab/labtest"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins every rendered answer of the broken leaf4 and of spine1
// (testdata/README.md), so a renderer change shows as a diff even where the collector would
// not notice it (the shape of a one-row ROW_ member, say).
func TestGolden(t *testing.T) {
	broken := Leaf4()
	broken.Port("Ethernet1/2").Watchdog[3] = false
	broken.Port("Ethernet1/3").PFCAuto, broken.Port("Ethernet1/3").DCBX = true, true
	broken.Port("Ethernet1/4").TrustDSCP = false
	broken.Port("Ethernet1/1").Counters = map[string]int64{"rx_pause": 3, "tx_pause": 1,
		"queue3_tx_packets": 1200, "queue3_tx_bytes": 1250400, "queue3_drops": 18, "queue3_drop_bytes": 18756, "queue3_ecn_marked_packets": 40}
	one := Spine1()
	for _, p := range one.Ports[1:] {
		p.Neighbor = nil
	}
	one.Ports[2].ECN[3], one.Ports[2].Strict[6] = false, false
	for _, sw := range []*switchstate.Switch{broken, one} {
		checkGolden(t, sw)
	}
}

func checkGolden(t *testing.T, sw *switchstate.Switch) {
	t.Helper()
	dev := New(sw)
	dev.Now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	labtest.GoldenAnswers(t, dev, Commands(), filepath.Join("testdata", sw.Name), *update)
}
