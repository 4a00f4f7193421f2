package checks

import "strings"

// PathName is a result's path in its parts. Results name a path in one of three forms, and
// this is the one place that composes the suffixes and parses them back:
//
//	"A->B"                    the endpoint pair (PATH-RESOLVED, a transfer)
//	"A->B via x>y"            one equal-cost route of it, by its transit devices
//	"A->B (path 2 via y)"     one member's transfer under --all-paths; its " via " names
//	                          the devices that set the member apart, not a hop list
type PathName struct {
	Pair   string // "gpu01:ens1f0np0->gpu05:ens1f0np0"
	Route  string // "leaf1>spine1>leaf3"
	Member string // "path 2 via spine1" (topology.MemberCoverage.Name)
}

// memberOpen starts a member suffix; endpoint names (device:interface) hold no space.
const memberOpen = " (path "

// ParsePathName splits a result's path into its parts.
func ParsePathName(path string) PathName {
	if pair, rest, ok := strings.Cut(path, memberOpen); ok {
		return PathName{Pair: pair, Member: "path " + strings.TrimSuffix(rest, ")")}
	}
	pair, route, _ := strings.Cut(path, " via ")
	return PathName{Pair: pair, Route: route}
}

// String is the name results carry; ParsePathName(n.String()) == n.
func (n PathName) String() string {
	switch {
	case n.Member != "":
		return n.Pair + " (" + n.Member + ")"
	case n.Route != "":
		return n.Pair + " via " + n.Route
	}
	return n.Pair
}

// EndpointPair is the endpoint pair of a path or transfer result: "A->B via x>y" -> "A->B",
// "A->B (path 2 via spine1)" -> "A->B".
func EndpointPair(path string) string { return ParsePathName(path).Pair }
