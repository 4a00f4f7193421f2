package texttable

import "testing"

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
