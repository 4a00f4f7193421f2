package cumulus

import (
	"fmt"
	"sort"
	"strings"
)

// interfaceLLDPOracle is ParseInterfaceLLDPJSON as it was before its scan: the differential
// tests' reference.
func interfaceLLDPOracle(out string) ([]Interface, error) {
	var doc map[string]lldpJSON
	if err := decode(CmdInterfaceLLDP, out, &doc); err != nil {
		return nil, err
	}
	if len(doc) == 0 {
		return nil, fmt.Errorf("%s: no interface in the output", jsonCmd(CmdInterfaceLLDP))
	}
	ifs := []Interface{}
	for name, i := range doc {
		if name == "" {
			return nil, fmt.Errorf("%s: an interface without a name", jsonCmd(CmdInterfaceLLDP))
		}
		if i.Type == "" && strings.HasPrefix(name, "swp") {
			i.Type = "swp" // a view without the type member: front-panel ports are named swp
		}
		row := Interface{Name: name, Type: i.Type, Line: fmt.Sprintf("%s type %s", name, i.Type)}
		if i.LLDP != nil && len(i.LLDP.Neighbor) > 0 {
			ids := make([]string, 0, len(i.LLDP.Neighbor))
			for id := range i.LLDP.Neighbor {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			n := i.LLDP.Neighbor[ids[0]]
			row.RemoteHost, row.RemotePort = n.Chassis.SystemName, n.Port.Name
			row.Line += fmt.Sprintf(" lldp neighbor %s port %s", n.Chassis.SystemName, n.Port.Name)
		}
		ifs = append(ifs, row)
	}
	sort.Slice(ifs, func(a, b int) bool { return portOrder.Compare(ifs[a].Name, ifs[b].Name) < 0 })
	return ifs, nil
}

// joinLinesOracle is joinLines as it was, by a slice and strings.Join.
func joinLinesOracle(lines ...string) string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
