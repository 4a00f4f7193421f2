package eos

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/roceaudit/roceaudit/lab/labtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins every rendered answer of the broken leaf3 (testdata/README.md), so a
// renderer change shows as a diff even where the collector would not notice it.
func TestGolden(t *testing.T) {
	sw := Leaf3()
	sw.Port("Ethernet2").TrustDSCP = false
	sw.Port("Ethernet3").PauseRX = true
	sw.Port("Ethernet1").Counters = map[string]int64{"pfc_rx_pause_prio3": 1204, "pfc_tx_pause_prio3": 311}
	labtest.GoldenAnswers(t, New(sw), Commands(), filepath.Join("testdata", sw.Name), *update)
}
