package linuxhost

import (
	"regexp"
	"testing"
)

var matcherPatterns = []string{
	"[^0:]", "[0:]", "[^0]", "0", ":", "a", "[a-z]", "[A-C]", "[[:space:]]", "[^[:space:]]",
	"[[:alpha:]]", "é", "[é]", "[^é]", "[^a-zé]", "(?i)a", "(?i)[a-c]", "([^0:])", "(?:[^0:])",
	"\\d", "\\D", "\\s", "\\w", "[\\d:]", "[^\\n]", "\\n", "[\\x00-\\x7f]", "[^\\x00-\\x7f]",
	"\\pL", "\\PL", "[^\\x{10FFFF}]", "\ufffd", "[\ufffd]", "[\\x00]", ".", "(?s).", "RoCE",
	"^0", "0$", "^$", "", "a|b", "[ab]|c", "ab*", "[^0:]+", "[^0:]*", "^[[:space:]]*(export[[:space:]]+)?(NCCL_IB_|UCX_IB_TRAFFIC_CLASS)",
}

var matcherLines = []string{
	"", "0", ":", "0000:0000:0000:0000:0000:0000:0000:0000", "fe80:0000:0000:0000:0e42:a1ff:fe6b:014c",
	"RoCE v2", "IB/RoCE v1", "ens1f0np0", "é", "0é", "é0", "\xff", "0\xff:", "\xc3", "\xc3\xa9",
	"\t ", " export NCCL_IB_HCA=mlx5_0", "\x00", "\x7f", "\u0100", "\ufffd", "\U0010FFFF", "a\xe0\x80b",
}

// The fast path answers as regexp.MatchString does, on every pattern and line of the table,
// and the patterns the fast path takes are those it is meant to.
func TestLineMatcherAgreesWithRegexp(t *testing.T) {
	for _, p := range matcherPatterns {
		m, err := newLineMatcher(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		re := regexp.MustCompile(p)
		for _, l := range matcherLines {
			if got, want := m.match(l), re.MatchString(l); got != want {
				t.Errorf("pattern %q line %q: fast path %v, regexp %v", p, l, got, want)
			}
		}
	}
	for p, fast := range map[string]bool{"[^0:]": true, "[[:space:]]": true, "([^0:])": true, "0": true, "\\d": true,
		"é": false, "(?i)a": false, ".": false, "RoCE": false, "^0": false, "[^0:]+": false} {
		m, _ := newLineMatcher(p)
		if m.class != fast {
			t.Errorf("%q: fast path %v, want %v", p, m.class, fast)
		}
	}
	if _, err := cachedMatcher("("); err == nil {
		t.Error("( compiled")
	}
}

// The cache hands back the compiled pattern, and stays bounded.
func TestCachedMatcherBounded(t *testing.T) {
	a, _ := cachedMatcher("[^0:]")
	b, _ := cachedMatcher("[^0:]")
	if a != b {
		t.Error("the same pattern compiled twice")
	}
	for i := range 3 * maxMatchers {
		if _, err := cachedMatcher(string(rune('a'+i%26)) + "{" + string(rune('0'+i%10)) + "}" + string(rune('A'+i/26))); err != nil {
			t.Fatal(err)
		}
	}
	matchers.RLock()
	n := len(matchers.m)
	matchers.RUnlock()
	if n > maxMatchers {
		t.Errorf("%d patterns cached", n)
	}
}

func FuzzLineMatcher(f *testing.F) {
	for _, p := range matcherPatterns {
		for _, l := range matcherLines {
			f.Add(p, l)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, line string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		m, err := newLineMatcher(pattern)
		if err != nil {
			t.Fatalf("%q: regexp compiles it, newLineMatcher: %v", pattern, err)
		}
		if got, want := m.match(line), re.MatchString(line); got != want {
			t.Errorf("pattern %q line %q: fast path %v, regexp %v", pattern, line, got, want)
		}
	})
}
