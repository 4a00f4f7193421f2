package linuxhost

import (
	"regexp"
	"regexp/syntax"
	"sync"
)

// lineMatcher is grep -E's test of one line: regexp.MatchString, with a byte-table fast path
// for the patterns hosts are asked most, a single character class such as the GID grep's
// [^0:] (the backtracker on every line of 6,120 GID files was 12% of the lab's CPU).
type lineMatcher struct {
	re *regexp.Regexp
	// class is set when the whole pattern is one character class (or one ASCII literal
	// character): ascii[b] says whether ASCII byte b is in it.
	class bool
	ascii [128]bool
}

// newLineMatcher compiles pattern as regexp.Compile does and decides the fast path from the
// same parse; anything it is unsure of is left to the regexp.
func newLineMatcher(pattern string) (*lineMatcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	m := &lineMatcher{re: re}
	tree, err := syntax.Parse(pattern, syntax.Perl) // regexp.Compile's own parse
	if err != nil {
		return m, nil
	}
	tree = tree.Simplify()
	for tree.Op == syntax.OpCapture {
		tree = tree.Sub[0]
	}
	switch {
	case tree.Op == syntax.OpCharClass:
		for i := 0; i+1 < len(tree.Rune); i += 2 {
			for c := tree.Rune[i]; c <= tree.Rune[i+1] && c < 128; c++ {
				m.ascii[c] = true
			}
		}
		m.class = true
	case tree.Op == syntax.OpLiteral && len(tree.Rune) == 1 && tree.Rune[0] < 128 && tree.Flags&syntax.FoldCase == 0:
		m.ascii[tree.Rune[0]] = true
		m.class = true
	}
	return m, nil
}

// match reports whether the pattern matches somewhere in line. For a class, an ASCII byte
// is always its own rune, whatever surrounds it, so a class byte anywhere is a match; only
// a line with other bytes and no class byte needs the regexp (which decodes UTF-8, and
// reads an invalid byte as U+FFFD).
func (m *lineMatcher) match(line string) bool {
	if !m.class {
		return m.re.MatchString(line)
	}
	other := false
	for i := 0; i < len(line); i++ {
		b := line[i]
		if b >= 128 {
			other = true
		} else if m.ascii[b] {
			return true
		}
	}
	return other && m.re.MatchString(line)
}

// matchers caches compiled patterns: every host is asked the same few. It is bounded, since
// a session may send any pattern; when full it starts over.
var matchers struct {
	sync.RWMutex
	m map[string]*lineMatcher
}

const maxMatchers = 64

// cachedMatcher is newLineMatcher through the cache (a pattern that does not compile is not
// kept).
func cachedMatcher(pattern string) (*lineMatcher, error) {
	matchers.RLock()
	m, ok := matchers.m[pattern]
	matchers.RUnlock()
	if ok {
		return m, nil
	}
	m, err := newLineMatcher(pattern)
	if err != nil {
		return nil, err
	}
	matchers.Lock()
	if matchers.m == nil || len(matchers.m) >= maxMatchers {
		matchers.m = map[string]*lineMatcher{}
	}
	matchers.m[pattern] = m
	matchers.Unlock()
	return m, nil
}
