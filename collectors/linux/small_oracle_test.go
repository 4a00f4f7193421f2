package linux

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// ParseEthtoolPause, ParseTrafficClass and ParsePFCPreventionTout as they were before their
// line splits, map and regexp were taken out: the oracle.

// ParseEthtoolPause reads `ethtool -a IF` (ethtool netlink/pause.c): the Autonegotiate, RX and TX lines
// are required; negotiated results and statistics are ignored.
func parseEthtoolPauseRef(text string) (topology.Pause, error) {
	var p topology.Pause
	seen := map[string]bool{}
	for _, raw := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(raw), ":")
		if !ok {
			continue
		}
		var dst *bool
		switch key {
		case "Autonegotiate":
			dst = &p.Autoneg
		case "RX":
			dst = &p.RX
		case "TX":
			dst = &p.TX
		default:
			continue // header, "RX negotiated", statistics
		}
		switch strings.TrimSpace(val) {
		case "on":
			*dst = true
		case "off":
			*dst = false
		default:
			return topology.Pause{}, fmt.Errorf("ethtool -a: %s is %q (expected on or off)", key, strings.TrimSpace(val))
		}
		seen[key] = true
	}
	for _, k := range []string{"Autonegotiate", "RX", "TX"} {
		if !seen[k] {
			return topology.Pause{}, fmt.Errorf("ethtool -a: no %q line (expected `Pause parameters for IF:` with Autonegotiate/RX/TX)", k+":")
		}
	}
	return p, nil
}

var (
	globalTClassRef = regexp.MustCompile(`^Global tclass=(\d+)$`)
	// Newer MLNX_OFED also lists per-destination rules: "src_ip=...,dst_ip=a.b.c.d/N,tclass=N".
	ruleTClassRef = regexp.MustCompile(`^(?:[a-z_]+=[^,\s]+,)*tclass=\d+$`)
)

// ParseTrafficClass reads /sys/class/infiniband/DEV/tc/PORT/traffic_class (MLNX_OFED): empty
// when unset, else `Global tclass=N`, possibly followed by per-destination rules. Only the
// global value is returned; a file with rules but no global value reads as not set.
func parseTrafficClassRef(text string) (tos int, set bool, err error) {
	for n, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if m := globalTClassRef.FindStringSubmatch(line); m != nil {
			v, err := strconv.Atoi(m[1])
			if err != nil || v > 255 {
				return 0, false, fmt.Errorf("traffic_class line %d: tclass %s out of range 0..255", n+1, m[1])
			}
			if set {
				return 0, false, fmt.Errorf("traffic_class line %d: a second Global tclass line", n+1)
			}
			tos, set = v, true
			continue
		}
		if !ruleTClassRef.MatchString(line) {
			return 0, false, fmt.Errorf("traffic_class line %d %s: expected `Global tclass=N` or a `...,tclass=N` rule", n+1, collectors.QuoteLine(line))
		}
	}
	return tos, set, nil
}

// ParsePFCPreventionTout reads `ethtool --get-tunable IF pfc-prevention-tout`: ethtool prints a
// u16 tunable as "pfc-prevention-tout: N" (ethtool.c print_tunable); mlx5 reports the critical
// stall watermark in ms, 0 when prevention is disabled.
func parsePFCPreventionToutRef(out string) (int, error) {
	for _, line := range strings.Split(out, "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), pfcTunable+":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 16)
		if err != nil {
			return 0, fmt.Errorf("%s value %q is not a number of ms", pfcTunable, strings.TrimSpace(v))
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("no %s line", pfcTunable)
}

// checkSmallParsers compares each parser with its oracle on text.
func checkSmallParsers(t *testing.T, text string) {
	t.Helper()
	p, err := ParseEthtoolPause(text)
	pr, errr := parseEthtoolPauseRef(text)
	if fmt.Sprint(err) != fmt.Sprint(errr) || !cmp.Equal(p, pr) {
		t.Fatalf("ParseEthtoolPause(%q) = %+v, %v; was %+v, %v", text, p, err, pr, errr)
	}
	tos, set, err := ParseTrafficClass(text)
	tosr, setr, errr := parseTrafficClassRef(text)
	if fmt.Sprint(err) != fmt.Sprint(errr) || tos != tosr || set != setr {
		t.Fatalf("ParseTrafficClass(%q) = %d, %v, %v; was %d, %v, %v", text, tos, set, err, tosr, setr, errr)
	}
	ms, err := ParsePFCPreventionTout(text)
	msr, errr := parsePFCPreventionToutRef(text)
	if fmt.Sprint(err) != fmt.Sprint(errr) || ms != msr {
		t.Fatalf("ParsePFCPreventionTout(%q) = %d, %v; was %d, %v", text, ms, err, msr, errr)
	}
}

func smallParserSeeds(tb testing.TB) []string {
	seeds := []string{"", "Global tclass=106\n", "Global tclass=٣\n", "Global tclass=300\nGlobal tclass=1", "Global tclass=1\r\nGlobal tclass=2\n",
		"src_ip=1.2.3.4,dst_ip=5.6.7.8/32,tclass=96\n", " Global tclass=07 \n", "Global tclass=-1\n",
		"Pause parameters for x:\nAutonegotiate:\toff\nRX:\ton\nTX:\ton\nRX negotiated: on\n", "RX: on\nTX: maybe\n", "RX: on\nRX: off\nTX: on\nAutonegotiate: on",
		"pfc-prevention-tout: 100\n", "pfc-prevention-tout: 70000\n", " pfc-prevention-tout:\t7 \r\npfc-prevention-tout: x"}
	for _, glob := range []string{"ethtool_a.*[^rt]", "traffic_class.*[^rt]", "pfc_tunable.*[^rt]"} {
		files, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", glob))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, string(b))
		}
	}
	return seeds
}

// go test runs the seeds (the recorded outputs) as a test; to fuzz:
// go test -run XXX -fuzz FuzzSmallParsersOracle -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzSmallParsersOracle(f *testing.F) {
	var minis []string
	for _, glob := range []string{"ethtool_a.*[^rt]", "traffic_class.*[^rt]", "pfc_tunable.*[^rt]"} {
		minis = append(minis, lineVariants(fixtureFiles(f, glob)[0], 6)...)
	}
	addSeeds(f, append(minis, smallParserSeeds(f)...)...)
	f.Fuzz(checkSmallParsers)
}

// neighborsExcerptRef is neighborsExcerpt as it was, with fmt.Sprintf: the oracle.
func neighborsExcerptRef(ns []topology.LLDPNeighbor) string {
	if len(ns) == 0 {
		return "no LLDP neighbours"
	}
	lines := make([]string, 0, len(ns))
	for _, n := range ns {
		l := fmt.Sprintf("%s: %s port %s", n.LocalPort, orDash(n.SystemName), orDash(n.PortID))
		if n.PortDescr != "" && n.PortDescr != n.PortID {
			l += " (" + n.PortDescr + ")"
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// go test -run XXX -fuzz FuzzNeighborsExcerpt -fuzztime 60s -fuzzminimizetime 2s ./collectors/linux
func FuzzNeighborsExcerpt(f *testing.F) {
	f.Add("ens1np0", "leaf1", "Ethernet1", "Ethernet1", uint8(2))
	f.Add("", "", "", "d\xff", uint8(0))
	f.Add("a", "%s", "p", "", uint8(3))
	f.Fuzz(func(t *testing.T, local, system, port, descr string, count uint8) {
		var ns []topology.LLDPNeighbor
		for i := range int(count % 5) {
			n := topology.LLDPNeighbor{LocalPort: local, SystemName: system, PortID: port, PortDescr: descr}
			if i%2 == 1 { // vary the fields that decide the dashes and the description
				n.SystemName, n.PortDescr = "", port
			}
			ns = append(ns, n)
		}
		if got, want := neighborsExcerpt(ns), neighborsExcerptRef(ns); got != want {
			t.Fatalf("neighborsExcerpt(%+v) = %q, was %q", ns, got, want)
		}
	})
}
