package cumulus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/fixturerunner"
)

// The fast paths take the real answers (a scan that always declined would pass the fuzzers)
// and read them as the decoders do.
func TestScansReadFixtures(t *testing.T) {
	for _, sc := range []struct {
		cmd          string
		scan         func(string) (map[string]int64, bool)
		decode       func(string) (map[string]int64, error)
		scenarioName string
	}{
		{"nv show interface swp1 counters qos -o json", countersQoSScan, countersQoSDecode, "healthy"},
		{"nv show interface swp1 link stats -o json", linkStatsScan, linkStatsDecode, "healthy"},
		{"nv show interface swp52 link stats -o json", linkStatsScan, linkStatsDecode, "healthy"},
	} {
		out := fixturerunner.MustRead(t, fixtures{}, sc.scenarioName, sc.cmd)
		got, ok := sc.scan(out)
		if !ok {
			t.Errorf("%s: the scan declined", sc.cmd)
			continue
		}
		want, err := sc.decode(out)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-decoder +scan):\n%s", sc.cmd, d)
		}
	}
}

// collectPort fills its templates by strings.Replace: exactly what collectors.Expand makes
// of them for any name ValidName passes.
func TestPortCommandsAsExpand(t *testing.T) {
	for _, tmpl := range Templates() {
		for _, name := range []string{"swp1", "swp52s3", "eth0", "bond-1.100"} {
			want, err := collectors.Expand(tmpl, map[string]string{"if": name})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Replace(tmpl, "{if}", name, 1); got != want {
				t.Errorf("%q: %q, Expand %q", tmpl, got, want)
			}
		}
	}
}
