package godebug

import "testing"

func TestValueReadsAsTheRuntimeDoes(t *testing.T) {
	for _, c := range []struct {
		godebug string
		v       int32
		ok      bool
	}{
		{"disablethp=1", 1, true},
		{"disablethp=2", 2, true},
		{"disablethp=01", 1, true},
		{"madvdontneed=1,disablethp=1", 1, true},
		{"disablethp=1,disablethp=0", 0, true},
		{"disablethp=1,disablethp=x", 1, true}, // an unreadable value leaves the earlier one
		{"disablethp=x", 0, false},
		{" disablethp=1", 0, false}, // keys are not trimmed
		{"a=1, disablethp=1", 0, false},
		{"disablethp", 0, false},
		{"", 0, false},
		{"disablethp=99999999999", 0, false}, // not a 32-bit integer
	} {
		v, ok := Value(c.godebug, "disablethp")
		if v != c.v || ok != c.ok {
			t.Errorf("Value(%q) = %d, %v; want %d, %v", c.godebug, v, ok, c.v, c.ok)
		}
	}
}
