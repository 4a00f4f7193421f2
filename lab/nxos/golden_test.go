package nxos

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	nxoscol "github.com/roceaudit/roceaudit/collectors/nxos"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins every rendered answer of the broken leaf4 and of spine1
// (testdata/README.md), so a renderer change shows as a diff even where the collector would
// not notice it (the shape of a one-row ROW_ member, say).
func TestGolden(t *testing.T) {
	broken := leaf4()
	broken.Port("Ethernet1/2").Watchdog[3] = false
	broken.Port("Ethernet1/3").PFCAuto, broken.Port("Ethernet1/3").DCBX = true, true
	broken.Port("Ethernet1/4").TrustDSCP = false
	broken.Port("Ethernet1/1").Counters = map[string]int64{"rx_pause": 3, "tx_pause": 1}
	one := spine1()
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
	dev.now = func() time.Time { return time.Date(2026, 11, 30, 10, 2, 31, 0, time.UTC) }
	for _, cmd := range Commands() {
		out, stderr, exit := dev.Exec(context.Background(), cmd)
		if exit != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", cmd, exit, stderr)
		}
		path := filepath.Join("testdata", sw.Name, nxoscol.FixtureFile(cmd))
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
