package reports

import (
	"strings"
	"testing"
)

// hasControl, by bytes, finds what isControl finds by runes: C0, DEL, C1 (two bytes in
// UTF-8), and nothing in invalid UTF-8 or other multi-byte runes.
func FuzzHasControl(f *testing.F) {
	for _, s := range []string{"", "plain", "tab\tand\nnewline", "\x1b[31mred", "\x7f", "\u0085", "\u009f", "\u00a0",
		"\xc2", "\xc2\x80", "\xc2\x7f", "\xe2\x80\x85", "\x80\x85", "\xff\xfe", "é", "\r", "a\u2028b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasControl(s), strings.ContainsFunc(s, isControl); got != want {
			t.Errorf("hasControl(%q) = %v, want %v", s, got, want)
		}
	})
}
