package labtest

import "testing"

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ got, want, diff string }{
		{"a\nb\n", "a\nc\n", "line 2:\n got  b\n want c"},
		{"a\n", "a\nb\n", "line 2:\n got  \n want b"},
		{"a\n", "a\n", "(no line differs)"},
	} {
		if d := FirstDiff(c.got, c.want); d != c.diff {
			t.Errorf("FirstDiff(%q, %q) = %q, want %q", c.got, c.want, d, c.diff)
		}
	}
}

func TestTrimLines(t *testing.T) {
	if got := TrimLines("\nEt1  up  \nEt2   \n\n"); got != "Et1  up\nEt2" {
		t.Errorf("TrimLines = %q", got)
	}
}

// GoldenFile names files as fixtures/README.md names device outputs.
func TestGoldenFile(t *testing.T) {
	for cmd, want := range map[string]string{
		"show interfaces | json":          "show_interfaces_json.txt",
		"show running-config ipqos":       "show_running-config_ipqos.txt",
		"nv show interface swp1s0/1 link": "nv_show_interface_swp1s0_1_link.txt",
	} {
		if got := GoldenFile(cmd); got != want {
			t.Errorf("GoldenFile(%q) = %q, want %q", cmd, got, want)
		}
	}
}
