package configtree

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shape renders a tree as "line{child,child{grandchild}}" so a test can state it in one line.
func shape(ns []*Node) string {
	var parts []string
	for _, n := range ns {
		s := n.Line
		if len(n.Children) > 0 {
			s += "{" + shape(n.Children) + "}"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func TestParseNestsByIndentation(t *testing.T) {
	text := "! Command: show running-config\r\n" +
		"qos map dscp 26 to traffic-class 3\r\n" +
		"!\r\n" +
		"interface Ethernet1\r\n" +
		"   mtu 9214\r\n" +
		"   tx-queue 3\r\n" +
		"      random-detect ecn minimum-threshold 150 kbytes\r\n" +
		"\r\n" +
		"   priority-flow-control on   \r\n" +
		"interface Ethernet2\r\n"
	roots, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := "qos map dscp 26 to traffic-class 3," +
		"interface Ethernet1{mtu 9214,tx-queue 3{random-detect ecn minimum-threshold 150 kbytes},priority-flow-control on}," +
		"interface Ethernet2"
	if got := shape(roots); got != want {
		t.Errorf("tree:\n got %s\nwant %s", got, want)
	}
}

// A child indented less than its sibling but more than its parent still belongs to the
// parent: only the nearest shallower line opens a block.
func TestParseUnevenIndentation(t *testing.T) {
	roots, err := Parse("policy-map type qos p\n    class c1\n      set qos-group 3\n  class c2\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shape(roots), "policy-map type qos p{class c1{set qos-group 3},class c2}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseStopsAtEnd(t *testing.T) {
	roots, err := Parse("interface Ethernet1\n   mtu 9214\n   end\nend\ninterface Ethernet2\n")
	if err != nil {
		t.Fatal(err)
	}
	// An indented "end" is an ordinary line; only one at the left margin closes.
	if got, want := shape(roots), "interface Ethernet1{mtu 9214,end}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"tab", "interface Ethernet1\n\tmtu 9214\n", "line 2 \"\\tmtu 9214\": tab in indentation"},
		{"orphan", "!\n  mtu 9214\n", `line 2 "mtu 9214": indented with no enclosing block`},
	} {
		_, err := Parse(tc.text)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	roots, err := Parse("!\n\n! nothing here\n")
	if err != nil || len(roots) != 0 {
		t.Errorf("got %d roots, %v; want none", len(roots), err)
	}
}

func TestAppendLinesIndentsEachLevel(t *testing.T) {
	roots, err := Parse("interface Ethernet1\n  tx-queue 3\n    random-detect ecn\n  mtu 9214\n")
	if err != nil {
		t.Fatal(err)
	}
	prior := []string{"kept"}
	got := roots[0].AppendLines(prior, "   ")
	want := []string{"kept", "interface Ethernet1", "   tx-queue 3", "      random-detect ecn", "   mtu 9214"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("three-space indent (-want +got):\n%s", d)
	}
	got = roots[0].AppendLines(nil, "  ")
	want = []string{"interface Ethernet1", "  tx-queue 3", "    random-detect ecn", "  mtu 9214"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("two-space indent (-want +got):\n%s", d)
	}
}

// The real configurations of the lab scenarios parse, and their blocks come back line for
// line as the switch printed them.
func TestParseFixtures(t *testing.T) {
	for _, tc := range []struct{ file, indent, block string }{
		{"../../../fixtures/eos/healthy/show_running-config.txt", "   ", "interface Ethernet1"},
		{"../../../fixtures/nxos/healthy/show_running-config_ipqos.txt", "  ", "system qos"},
	} {
		b, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		roots, err := Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		var got []string
		for _, r := range roots {
			if r.Line == tc.block {
				got = r.AppendLines(nil, tc.indent)
			}
		}
		if len(got) < 2 {
			t.Fatalf("%s: block %q missing or empty: %q", tc.file, tc.block, got)
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		if !strings.Contains(text, strings.Join(got, "\n")+"\n") {
			t.Errorf("%s: block %q is not as printed:\n%s", tc.file, tc.block, strings.Join(got, "\n"))
		}
	}
}

func TestTabsInsideLinesAndBannersAreNotConfiguration(t *testing.T) {
	text := "banner motd\nWelcome\tto the lab\n  indented banner text\nEOF\ninterface Ethernet1\n   description uplink\tto spine\n   mtu 9214\n"
	roots, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 1 || roots[0].Line != "interface Ethernet1" || len(roots[0].Children) != 2 {
		t.Errorf("%+v", roots)
	}
	if _, err := Parse("interface Ethernet1\n\tmtu 9214\n"); err == nil {
		t.Error("a tab in the indentation is still an error")
	}
}
