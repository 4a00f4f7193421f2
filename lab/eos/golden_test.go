package eos

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	eoscol "github.com/roceaudit/roceaudit/collectors/eos"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins every rendered answer of the broken leaf3 (testdata/README.md), so a
// renderer change shows as a diff even where the collector would not notice it.
func TestGolden(t *testing.T) {
	sw := leaf3()
	sw.Port("Ethernet2").TrustDSCP = false
	sw.Port("Ethernet3").PauseRX = true
	sw.Port("Ethernet1").Counters = map[string]int64{"pfc_rx_pause_prio3": 1204, "pfc_tx_pause_prio3": 311}
	dev := New(sw)
	for _, cmd := range Commands() {
		out, stderr, exit := dev.Exec(context.Background(), cmd)
		if exit != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", cmd, exit, stderr)
		}
		path := filepath.Join("testdata", sw.Name, eoscol.FixtureFile(cmd))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if out != string(want) {
			t.Errorf("%q differs from %s:\n%s", cmd, path, firstDiff(out, string(want)))
		}
	}
}

// firstDiff shows the first differing line.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "(no line differs)"
}
