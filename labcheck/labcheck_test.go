package labcheck

import (
	"slices"
	"testing"
)

func TestMembers(t *testing.T) {
	if got := Members([8]bool{3: true, 6: true}); !slices.Equal(got, []int{3, 6}) {
		t.Errorf("Members = %v, want [3 6]", got)
	}
	if got := Members([8]bool{}); got == nil || len(got) != 0 {
		t.Errorf("Members of none = %#v, want an empty non-nil slice", got)
	}
}
