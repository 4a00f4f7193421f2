package texttable

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// verbatim reads one of the reference outputs the collectors' own tests use (their provenance
// is in fixtures/README.md).
func verbatim(t *testing.T, platform, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "fixtures", platform, "verbatim", name))
	if err != nil {
		t.Fatal(err)
	}
	return SplitLines(string(b))
}

func TestSplitLines(t *testing.T) {
	if d := cmp.Diff([]string{"a", "b  ", "", "c"}, SplitLines("a\r\nb  \n\r\nc")); d != "" {
		t.Error(d)
	}
}

func TestRuleSpans(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []Span
	}{
		{"-----  -----  -----", []Span{{0, 5}, {7, 12}, {14, 19}}},
		{"    -  -----   ", []Span{{4, 5}, {7, 12}}},
		{"--------------------------------------------------", []Span{{0, 50}}},
		{"", nil},
		{"     ", nil},
		{"=====", nil},
		{"Total entries displayed:  3", nil},
		{"---  x", nil},
		// NVUE marks a truncated column with "…" after its dashes; spans count runes.
		{"--  ---…  ---", []Span{{0, 2}, {4, 8}, {10, 13}}},
		{"-…-  --", []Span{{0, 3}, {5, 7}}},
		{"---  …", nil},
		{"…---", nil},
		{"---  -x…", nil},
	} {
		if d := cmp.Diff(tc.want, RuleSpans(tc.line)); d != "" {
			t.Errorf("RuleSpans(%q) (-want +got):\n%s", tc.line, d)
		}
	}
}

func TestTokens(t *testing.T) {
	line := "  eth0  swtor-b2lab2-1610  GigabitEthernet 0/2  OBR "
	var got []string
	for _, s := range Tokens(line) {
		got = append(got, line[s.Start:s.End])
	}
	if d := cmp.Diff([]string{"eth0", "swtor-b2lab2-1610", "GigabitEthernet 0/2", "OBR"}, got); d != "" {
		t.Errorf("a single space belongs to the value (-want +got):\n%s", d)
	}
	if got := Tokens("   "); got != nil {
		t.Errorf("blank line: %v", got)
	}
}

func TestCutCellsMisalignedTokenGoesToNearestColumn(t *testing.T) {
	spans := RuleSpans("-----  -----  -----")
	// "b" starts one column early, in the gap: it still belongs to the second column.
	got := CutCells("a     b      c", spans)
	if d := cmp.Diff([]string{"a", "b", "c"}, got); d != "" {
		t.Error(d)
	}
}

func TestCutCellsJoinsTokensOfOneColumn(t *testing.T) {
	spans := RuleSpans("----------------  ---")
	if d := cmp.Diff([]string{"a  b", "c"}, CutCells("a  b              c", spans)); d != "" {
		t.Error(d)
	}
}

// sonic `show lldp table`: an empty trailing cell stays empty, a value with a single space
// stays whole.
func TestCutCellsTabulateTable(t *testing.T) {
	lines := verbatim(t, "sonic", "show_lldp_table.txt")
	spans := RuleSpans(lines[2])
	if len(spans) != 5 {
		t.Fatalf("rule %q: %d columns, want 5", lines[2], len(spans))
	}
	for i, want := range [][]string{
		{"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"},
		{"Ethernet112", "T1-1", "hundredGigE1/2", "BR", "T0-2:hundredGigE1/29"},
		{"eth0", "swtor-b2lab2-1610", "GigabitEthernet 0/2", "OBR", ""},
	} {
		line := lines[[]int{1, 3, 5}[i]]
		if d := cmp.Diff(want, CutCells(line, spans)); d != "" {
			t.Errorf("%q (-want +got):\n%s", line, d)
		}
	}
}

// sonic `show pfc counters`: right-aligned numbers and a right-aligned header.
func TestCutCellsRightAligned(t *testing.T) {
	lines := verbatim(t, "sonic", "show_pfc_counters.txt")
	spans := RuleSpans(lines[1])
	if got := CutCells(lines[0], spans); got[0] != "Port Rx" || got[8] != "PFC7" {
		t.Errorf("header = %q", got)
	}
	want := []string{"Ethernet0", "1,200", "201", "202", "203", "204", "205", "206", "207"}
	if d := cmp.Diff(want, CutCells(lines[2], spans)); d != "" {
		t.Errorf("row (-want +got):\n%s", d)
	}
}

// NVUE `nv show qos roce`: the header sits one character off its rule, and a key with only an
// applied value has an empty operational cell.
func TestCutCellsNVUEHeaderOffRule(t *testing.T) {
	lines := verbatim(t, "cumulus", "nv_show_qos_roce.lossless-5.10.txt")
	spans := RuleSpans(lines[1])
	if d := cmp.Diff([]string{"", "operational", "applied"}, CutCells(lines[0], spans)); d != "" {
		t.Errorf("header (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"enable", "", "on"}, CutCells(lines[2], spans)); d != "" {
		t.Errorf("enable row (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"max-threshold", "1.43 MB", ""}, CutCells(lines[7], spans)); d != "" {
		t.Errorf("max-threshold row (-want +got):\n%s", d)
	}
}

// NVIDIA's own `nv show interface` example: two columns truncated ("…" ends their dash runs).
// The three-byte "…" must not shift the columns after it.
func TestCutCellsNVUETruncatedColumns(t *testing.T) {
	lines := verbatim(t, "cumulus", "nv_show_interface.head.txt")
	spans := RuleSpans(lines[1])
	if len(spans) != 8 {
		t.Fatalf("rule %q: %d columns, want 8", lines[1], len(spans))
	}
	if spans[6] != (Span{60, 75}) || spans[7] != (Span{77, 93}) {
		t.Errorf("truncated columns = %v %v, want rune spans {60 75} {77 93}", spans[6], spans[7])
	}
	want := []string{"Interface", "State", "Speed", "MTU", "Type", "Remote Host", "Remote Port", "Summary"}
	if d := cmp.Diff(want, CutCells(lines[0], spans)); d != "" {
		t.Errorf("header (-want +got):\n%s", d)
	}
	for _, tc := range []struct {
		line int
		want []string
	}{
		{2, []string{"BLUE", "up", "", "65575", "vrf", "", "", "IP Address:"}},
		{3, []string{"", "", "", "", "", "", "", "127.0.0.1/8"}},
		{12, []string{"bond3", "up", "1G", "9000", "bond", "", "", ""}},
	} {
		if d := cmp.Diff(tc.want, CutCells(lines[tc.line], spans)); d != "" {
			t.Errorf("%q (-want +got):\n%s", lines[tc.line], d)
		}
	}
}

// A truncated cell keeps its "…", and a token after one lands in its own column: rune
// positions, not bytes.
func TestCutCellsTruncatedCell(t *testing.T) {
	spans := RuleSpans("-----  ----…  ---")
	got := CutCells("ab     swp1…  x", spans)
	if d := cmp.Diff([]string{"ab", "swp1…", "x"}, got); d != "" {
		t.Error(d)
	}
	if !Truncated(got[1]) || Truncated(got[0]) || Truncated("") {
		t.Error("Truncated")
	}
}

func TestTokensAreRunePositions(t *testing.T) {
	line := "é…  b c"
	toks := Tokens(line)
	if d := cmp.Diff([]Span{{0, 2}, {4, 7}}, toks); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	if toks[0].Text(line) != "é…" || toks[1].Text(line) != "b c" {
		t.Errorf("texts %q %q", toks[0].Text(line), toks[1].Text(line))
	}
	if got := (Span{5, 99}).Text(line); got != " c" {
		t.Errorf("span past the end = %q", got)
	}
}
