package reports

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/checks"
)

var ansiSGR = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestWrapLine(t *testing.T) {
	s := "    FAIL   XFER-BW  error  bandwidth far below the slowest link (gpu01:ens1f0np0, 100 Gb/s); leaf1 Ethernet12: queue3_drop_bytes +34,345,272"
	got := wrapLine(s, 60, detailIndent)
	want := []string{
		"    FAIL   XFER-BW  error  bandwidth far below the slowest",
		"           link (gpu01:ens1f0np0, 100 Gb/s); leaf1",
		"           Ethernet12: queue3_drop_bytes +34,345,272",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrapLine (-want +got):\n%s", diff)
	}
	// A word longer than the line keeps its own line, whole.
	long := strings.Repeat("x", 70)
	if got := wrapLine("  a "+long+" b", 40, "    "); !cmp.Equal(got, []string{"  a", "    " + long, "    b"}) {
		t.Errorf("long word: %q", got)
	}
	if got := wrapLine(s, 0, "  "); !cmp.Equal(got, []string{s}) {
		t.Errorf("width 0 folded: %q", got)
	}
}

// A colour open at a break is closed before it and reopened after the indent, and colour
// codes take no columns.
func TestWrapLineColour(t *testing.T) {
	p := newPalette(true)
	s := "gpu09  " + paint(p.fail, "UNREACHABLE: ssh host key mismatch: refusing to connect")
	got := wrapLine(s, 32, "  ")
	if plain := ansiSGR.ReplaceAllString(strings.Join(got, "\n"), ""); plain != "gpu09  UNREACHABLE: ssh host key\n  mismatch: refusing to connect" {
		t.Errorf("folded text = %q", plain)
	}
	for i, l := range got {
		if visibleWidth(l) > 32 {
			t.Errorf("line %d is %d columns: %q", i, visibleWidth(l), l)
		}
		if i > 0 && !strings.HasPrefix(l, "  \x1b[") {
			t.Errorf("line %d does not reopen the colour after its indent: %q", i, l)
		}
		if i < len(got)-1 && !strings.HasSuffix(l, sgrReset) {
			t.Errorf("line %d does not close its colour before the break: %q", i, l)
		}
	}
}

// longReport has findings, causes, a path and a transfer far wider than a terminal.
func longReport() *Report {
	r := sampleReport()
	r.Results = append(r.Results, checks.Result{
		Check: "SW-ECN-PFC-ORDER", Status: checks.Fail, Severity: checks.Critical, Device: "leaf1", Interface: "Ethernet48",
		Message:     "ECN starts marking 660253 B after the priority group has already sent XOFF: PFC fires before DCQCN can react",
		Actual:      "queue 3 Kmin 2097152 B (AZURE_LOSSLESS_ETHERNET48); priority group 3 PFC trigger 1436899 B = reserved 18432 B + 1418467 B",
		Expected:    "ECN Kmin below the PFC trigger of the priority group",
		Remediation: "sudo sonic-db-cli CONFIG_DB HSET 'WRED_PROFILE|AZURE_LOSSLESS_ETHERNET48' green_min_threshold 718449 green_max_threshold 1293209",
	})
	return r
}

// TestTextWidth: folded to 80 columns, every line of prose fits, continuations hang under
// the check, and nothing is lost: joined back, the words are those of the unfolded report.
// Only commands (fix:, remediation, evidence), single words longer than a line and, with -v,
// tables may be wider.
func TestTextWidth(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		flat := string(render(t, "text", longReport(), Options{Verbose: verbose}))
		folded := string(render(t, "text", longReport(), Options{Verbose: verbose, Width: 80}))
		if strings.Join(strings.Fields(flat), " ") != strings.Join(strings.Fields(folded), " ") {
			t.Errorf("verbose=%v: folding changed the words:\n%s", verbose, folded)
		}
		var inBlock bool
		for _, l := range strings.Split(folded, "\n") {
			trimmed := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(trimmed, "fix:"), strings.HasPrefix(trimmed, "evidence:"), strings.HasPrefix(trimmed, "remediation:"):
				inBlock = true
			case strings.HasPrefix(l, blockIndent), inBlock && strings.HasPrefix(l, detailIndent+"     "):
			default:
				inBlock = false
			}
			if len([]rune(l)) > 80 && !inBlock && !verbose && strings.Contains(trimmed, " ") {
				t.Errorf("verbose=%v: prose line of %d columns: %q", verbose, len([]rune(l)), l)
			}
		}
		// Colour changes no column: stripped, the coloured report is the plain one.
		coloured := string(render(t, "text", longReport(), Options{Verbose: verbose, Width: 80, Color: true}))
		if diff := cmp.Diff(folded, ansiSGR.ReplaceAllString(coloured, "")); diff != "" {
			t.Errorf("verbose=%v: coloured folding differs (-plain +coloured):\n%s", verbose, diff)
		}
	}
	// A fix that does not fit after its finding hangs under it whole: a command is never folded.
	out := string(render(t, "text", longReport(), Options{Width: 80}))
	if want := "\n" + detailIndent + "fix: sudo sonic-db-cli CONFIG_DB HSET 'WRED_PROFILE|AZURE_LOSSLESS_ETHERNET48' green_min_threshold 718449 green_max_threshold 1293209\n"; !strings.Contains(out, want) {
		t.Errorf("the fix is not on its own line, whole:\n%s", out)
	}
	if want := "    FAIL   SW-ECN-PFC-ORDER  critical  ECN starts marking 660253 B after the\n" + detailIndent + "priority group"; !strings.Contains(out, want) {
		t.Errorf("the finding does not continue under its check:\n%s", out)
	}
}

// The sample report at 80 columns, as a terminal shows it; the unfolded text is the golden
// report.txt. Rewrite with go test ./reports -run TestGoldenTextWidth -update.
func TestGoldenTextWidth(t *testing.T) {
	got := render(t, "text", longReport(), Options{Width: 80})
	golden(t, filepath.Join("testdata", "report.width80.txt"), got, "TestGoldenTextWidth")
}
