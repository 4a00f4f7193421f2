package collectors

import (
	"strings"
	"testing"
)

// refusalRef is Refusal as it was, over strings.Split: the oracle of the line loop.
func refusalRef(out string, markers []string) (string, bool) {
	seen := 0
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.Trim(t, "^ ") == "" {
			continue
		}
		for _, m := range markers {
			if strings.HasPrefix(t, m) {
				return t, true
			}
		}
		if seen++; seen == refusalLines {
			break
		}
	}
	return "", false
}

var refusalMarkers = []string{"% Invalid input", "ERROR:", "% Incomplete command"}

// A refusal on any of the first lines that count is found, past blanks and caret lines; one
// further down is output.
func TestRefusalAsBefore(t *testing.T) {
	var cases []string
	for _, marker := range refusalMarkers {
		for n := range 6 {
			for _, filler := range []string{"line\n", "\n", "  ^\n", "\r\n", "x\r\n"} {
				cases = append(cases, strings.Repeat(filler, n)+marker+" here\nmore\n", strings.Repeat(filler, n)+"  "+marker)
			}
		}
	}
	cases = append(cases, "", "\n", "{}", strings.Repeat("{\n", 1000), "a\nb\nc\nERROR: late")
	found := 0
	for _, c := range cases {
		line, ok := Refusal(c, refusalMarkers)
		wantLine, wantOK := refusalRef(c, refusalMarkers)
		if line != wantLine || ok != wantOK {
			t.Errorf("Refusal(%.60q) = %q, %v; want %q, %v", c, line, ok, wantLine, wantOK)
		}
		if ok {
			found++
		}
	}
	if found == 0 || found == len(cases) {
		t.Fatalf("%d of %d cases refused: the cases test nothing", found, len(cases))
	}
}

func FuzzRefusalAsBefore(f *testing.F) {
	f.Add("% Invalid input\n")
	f.Add("\n\n  ^\nERROR: x")
	f.Fuzz(func(t *testing.T, s string) {
		line, ok := Refusal(s, refusalMarkers)
		wantLine, wantOK := refusalRef(s, refusalMarkers)
		if line != wantLine || ok != wantOK {
			t.Errorf("Refusal(%q) = %q, %v; want %q, %v", s, line, ok, wantLine, wantOK)
		}
	})
}
