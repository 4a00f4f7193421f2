package checks

import "testing"

// Each form of a result's path parses into its parts and composes back to the same name; a
// member's " via " names the devices that set it apart, not a route.
func TestPathNameForms(t *testing.T) {
	const pair = "gpu01:ens1f0np0->gpu05:ens1f0np0"
	for in, want := range map[string]PathName{
		pair:                                 {Pair: pair},
		pair + " via leaf1>spine1>leaf3":     {Pair: pair, Route: "leaf1>spine1>leaf3"},
		pair + " (path 2 via spine2)":        {Pair: pair, Member: "path 2 via spine2"},
		pair + " (path 1 via leaf1, spine1)": {Pair: pair, Member: "path 1 via leaf1, spine1"},
	} {
		got := ParsePathName(in)
		if got != want {
			t.Errorf("ParsePathName(%q) = %+v, want %+v", in, got, want)
		}
		if got.String() != in {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), in)
		}
		if EndpointPair(in) != pair {
			t.Errorf("EndpointPair(%q) = %q", in, EndpointPair(in))
		}
	}
}
