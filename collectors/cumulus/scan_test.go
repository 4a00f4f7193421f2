package cumulus

import (
	"regexp"
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
		{"nv show interface swp1 counters qos -o json", countersQoSFast, countersQoSDecode, "healthy"},
		{"nv show interface swp52 counters qos -o json", countersQoSFast, countersQoSDecode, "healthy"},
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
	for _, name := range []string{"swp1", "swp52s3", "e", "bond-1.100"} {
		got := expandPortCommands(name)
		for k, tmpl := range portCommandTmpls {
			want, err := collectors.Expand(tmpl, map[string]string{"if": name})
			if err != nil {
				t.Fatal(err)
			}
			if got[k] != want {
				t.Errorf("%q for %s: %q, Expand %q", tmpl, name, got[k], want)
			}
		}
	}
}

// The usual document (every column of classes 0..7) and others: the fast reader's template
// clone and its map built name by name read as the decoder does.
func TestCountersQoSFastShapes(t *testing.T) {
	usual := fixturerunner.MustRead(t, fixtures{}, "healthy", "nv show interface swp1 counters qos -o json")
	for name, out := range map[string]string{
		"usual":       usual,
		"zeros":       regexp.MustCompile(`: *"?[0-9]+"?`).ReplaceAllString(usual, ": 0"),
		"class 9":     strings.Replace(usual, `"7"`, `"9"`, 1),
		"one column":  `{"pfc-stats":{"1":{"rx-pause-frames":3}}}`,
		"zero column": `{"pfc-stats":{"1":{"rx-pause-frames":0}}}`,
	} {
		got, ok := countersQoSFast(out)
		if !ok {
			t.Errorf("%s: declined", name)
			continue
		}
		want, err := countersQoSDecode(out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-decoder +fast):\n%s", name, d)
		}
	}
	if len(qosTemplate) != 96 {
		t.Errorf("the template has %d counters", len(qosTemplate))
	}
}

// The LLDP scan takes the real answers: the fixture and the generated 248-port leaf's shape.
func TestInterfaceLLDPScanReads(t *testing.T) {
	out := fixturerunner.MustRead(t, fixtures{}, "healthy", "nv show interface lldp -o json")
	got, ok := interfaceLLDPScan(out)
	if !ok {
		t.Fatal("the scan declined")
	}
	want, err := interfaceLLDPOracle(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-old +scan):\n%s", d)
	}
}
