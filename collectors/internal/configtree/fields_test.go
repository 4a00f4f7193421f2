package configtree

import (
	"slices"
	"strings"
	"testing"
)

func FuzzFieldsAgreesWithStrings(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a b  c ", "\ta\vb\fc\rd\ne", "a\u00a0b", "a\u2003 b", "\xffa b", "é b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf [4]string
		got, want := Fields(buf[:0], s), strings.Fields(s)
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
	})
}
