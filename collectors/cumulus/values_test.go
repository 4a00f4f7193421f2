package cumulus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBool(t *testing.T) {
	for in, want := range map[string]bool{"on": true, "enabled": true, "enable": true, "yes": true, "True": true,
		"off": false, "disabled": false, "disable": false, "no": false} {
		got, err := parseBool(in)
		if err != nil || got != want {
			t.Errorf("parseBool(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := parseBool("auto"); err == nil {
		t.Error("auto accepted")
	}
}

func TestParseList(t *testing.T) {
	for in, want := range map[string][]int{"0,3": {0, 3}, "-": {}, "": {}, "3": {3}, "5,0-2": {0, 1, 2, 5}} {
		got, err := parseList(in, 7)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("parseList(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"8", "x", "3-1", "1,,2"} {
		if _, err := parseList(bad, 7); err == nil {
			t.Errorf("parseList(%q) accepted", bad)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"0 Bytes": 0, "25000 B": 25000, "146.48 KB": 149996, "1.43 MB": 1499464, "7": 7} {
		got, err := parseBytes(in)
		if err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"inf", "1.0 XB", "1 2 3", "-5 B", "NaN B"} {
		if _, err := parseBytes(bad); err == nil {
			t.Errorf("parseBytes(%q) accepted", bad)
		}
	}
}

func TestNormalizeTrustAndScheduler(t *testing.T) {
	for in, want := range map[string]string{"l3": "dscp", "l2": "pcp", "both": "both", "pcp,dscp": "both", "port": "none"} {
		if got, err := NormalizeTrust(in); err != nil || got != want {
			t.Errorf("NormalizeTrust(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := NormalizeTrust("cos"); err == nil {
		t.Error("trust cos accepted")
	}
	for in, want := range map[string]string{"strict-priority": "strict", "strict priority": "strict", "strict": "strict",
		"DWRR-50%": "dwrr", "dwrr-50%": "dwrr", "dwrr": "dwrr"} {
		if got, err := normalizeScheduler(in); err != nil || got != want {
			t.Errorf("normalizeScheduler(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := normalizeScheduler("fifo"); err == nil {
		t.Error("fifo accepted")
	}
}
