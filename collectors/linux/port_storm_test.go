package linux

import "testing"

func TestParsePFCPreventionTout(t *testing.T) {
	for out, want := range map[string]int{"pfc-prevention-tout: 8000\n": 8000, "pfc-prevention-tout: 0\n": 0, "pfc-prevention-tout: 100": 100} {
		if got, err := ParsePFCPreventionTout(out); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", out, got, err, want)
		}
	}
	for _, bad := range []string{"", "rx-copybreak: 256\n", "pfc-prevention-tout: auto\n", "pfc-prevention-tout: 70000\n"} {
		if _, err := ParsePFCPreventionTout(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
