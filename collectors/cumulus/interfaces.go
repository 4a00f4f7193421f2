package cumulus

import (
	"fmt"
	"strings"
)

// Interface is one row of `nv show interface lldp`: every configured interface, with its LLDP
// neighbour when it has one.
type Interface struct {
	Name       string
	Type       string // swp (front panel), eth (management), bond, ...
	RemoteHost string
	// RemotePort is the neighbour's LLDP port ID: an interface name, or a MAC for a host whose
	// stock lldpd announces one ("48:b0:2d:76:ee:8e"). The table has no port description or
	// chassis column, so a neighbour carries neither.
	RemotePort string
	Line       string
}

// ParseInterfaceLLDP parses `nv show interface lldp`: a table of Interface, Speed, Type,
// Remote Host and Remote Port.
func ParseInterfaceLLDP(out string) ([]Interface, error) {
	t := parseNV(out).lead
	if t == nil {
		return nil, fmt.Errorf("%s: no table in the output", CmdInterfaceLLDP)
	}
	name, typ, host, port := t.column("Interface"), t.column("Type"), t.column("Remote Host"), t.column("Remote Port")
	if name < 0 || typ < 0 || host < 0 || port < 0 {
		return nil, fmt.Errorf("%s: expected Interface, Type, Remote Host and Remote Port columns, got %q", CmdInterfaceLLDP, t.header)
	}
	ifs := []Interface{}
	for _, r := range t.rows {
		if r.cells[name] == "" {
			return nil, fmt.Errorf("%s: row without an interface: %q", CmdInterfaceLLDP, strings.TrimSpace(r.line))
		}
		ifs = append(ifs, Interface{Name: r.cells[name], Type: r.cells[typ], RemoteHost: r.cells[host],
			RemotePort: r.cells[port], Line: strings.TrimRight(r.line, " ")})
	}
	return ifs, nil
}
