package numrange

import "testing"

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "3"},
		{[]int{3, 4}, "3-4"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, "0-7"},
		{[]int{0, 1, 2, 25, 27, 29, 30}, "0-2,25,27,29-30"},
		{[]int{5, 3, 4}, "5,3-4"}, // not sorted here: the caller's order stands
		{[]int{2, 2}, "2,2"},
	} {
		if got := Format(tc.in); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
