package configtree

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("interface Ethernet1\n   mtu 9214\n   qos trust dscp\n!\nrouter bgp 1\n  neighbor x\n")
	f.Add("a\n\tb\n  c\n    d\n e\n")
	f.Fuzz(func(t *testing.T, s string) {
		nodes, err := Parse(s)
		if err != nil {
			return
		}
		var walk func([]*Node, int)
		walk = func(ns []*Node, depth int) {
			if depth > len(s)+1 {
				t.Fatalf("nesting deeper than the input is long")
			}
			for _, n := range ns {
				walk(n.Children, depth+1)
			}
		}
		walk(nodes, 0)
	})
}
