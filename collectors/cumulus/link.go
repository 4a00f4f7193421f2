package cumulus

import "fmt"

// Link is the MTU of `nv show interface <if> link`: the operational value (what the port
// runs), or the applied one when NVUE reports no operational value.
type Link struct {
	MTU         int
	FromApplied bool
	Line        string
}

// ParseLink parses `nv show interface <if> link`.
func ParseLink(out string) (Link, error) {
	doc := parseNV(out)
	var l Link
	for _, kv := range doc.kv {
		if kv.key != "mtu" {
			continue
		}
		v := kv.cells["operational"]
		if v == "" {
			v, l.FromApplied = kv.cells["applied"], true
		}
		n, err := parseNumber(v)
		if err != nil || n == 0 {
			return Link{}, fmt.Errorf("%s: mtu %q is not a number", TmplLink, v)
		}
		l.MTU, l.Line = n, doc.line("mtu")
		return l, nil
	}
	return Link{}, fmt.Errorf("%s: no mtu row in the output", TmplLink)
}
