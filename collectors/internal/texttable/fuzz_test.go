package texttable

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func FuzzCutCells(f *testing.F) {
	f.Add("Port       Mode  Oper\n---------  ----  ----\nEthernet0  Auto  On\n")
	f.Add("    name  mode…\n    ----  ----…\n    x     y\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines := SplitLines(s)
		for i, l := range lines {
			spans := RuleSpans(l)
			if spans == nil || i+1 >= len(lines) {
				continue
			}
			if cells := CutCells(lines[i+1], spans); len(cells) != len(spans) {
				t.Fatalf("%d cells for %d columns", len(cells), len(spans))
			}
			for _, c := range CutCells(lines[i+1], spans) {
				_ = Truncated(c)
			}
		}
		for _, l := range lines {
			_ = Tokens(l)
		}
	})
}

// The ASCII paths cut exactly what the rune paths cut.
func FuzzASCIIPaths(f *testing.F) {
	f.Add("  Port       Mode  Oper  ", "---------  ----  ----- ")
	f.Add("    x     y", "    ----  ----")
	f.Fuzz(func(t *testing.T, line, rule string) {
		if !isASCII(line) || !isASCII(rule) {
			return
		}
		rule = strings.TrimRight(rule, " ")
		spans := ruleSpansASCII(rule)
		if d := cmp.Diff(ruleSpansRunes(rule), spans); d != "" {
			t.Fatalf("rule %q (-runes +ASCII):\n%s", rule, d)
		}
		if spans == nil {
			spans = []Span{{0, 3}, {5, 9}}
		}
		if d := cmp.Diff(cutCellsRunes(line, spans, make([]string, len(spans))), CutCells(line, spans)); d != "" {
			t.Fatalf("cells of %q (-runes +ASCII):\n%s", line, d)
		}
		if d := cmp.Diff(tokens([]rune(line)), Tokens(line)); d != "" {
			t.Fatalf("tokens of %q (-runes +ASCII):\n%s", line, d)
		}
		for _, s := range Tokens(line) {
			if got, want := s.Text(line), string([]rune(line)[s.Start:s.End]); got != want {
				t.Fatalf("Text %q, want %q", got, want)
			}
		}
	})
}
