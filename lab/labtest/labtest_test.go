package labtest

import (
	"slices"
	"testing"
)

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ got, want, diff string }{
		{"a\nb\n", "a\nc\n", "line 2:\n got  b\n want c"},
		{"a\n", "a\nb\n", "line 2:\n got  \n want b"},
		{"a\n", "a\n", "(no line differs)"},
	} {
		if d := FirstDiff(c.got, c.want); d != c.diff {
			t.Errorf("FirstDiff(%q, %q) = %q, want %q", c.got, c.want, d, c.diff)
		}
	}
}

func TestTrimLines(t *testing.T) {
	if got := TrimLines("\nEt1  up  \nEt2   \n\n"); got != "Et1  up\nEt2" {
		t.Errorf("TrimLines = %q", got)
	}
}

func TestMembers(t *testing.T) {
	if got := Members([8]bool{3: true, 6: true}); !slices.Equal(got, []int{3, 6}) {
		t.Errorf("Members = %v, want [3 6]", got)
	}
	if got := Members([8]bool{}); got == nil || len(got) != 0 {
		t.Errorf("Members of none = %#v, want an empty non-nil slice", got)
	}
}
