package cumulus

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
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
	// Truncated names the columns whose cell NVUE cut short ("…" at its end): such a cell is
	// only a prefix of the value. A truncated Remote Host or Remote Port is left empty (unknown,
	// never matched as a name or a MAC); a truncated Name stays as printed, since the row is
	// still a port, but it cannot be queried by that name.
	Truncated []string
}

// NameTruncated reports whether NVUE cut the interface name short.
func (i Interface) NameTruncated() bool { return texttable.Truncated(i.Name) }

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
		i := Interface{Name: r.cells[name], Type: r.cells[typ], Line: strings.TrimRight(r.line, " ")}
		if i.NameTruncated() {
			i.Truncated = append(i.Truncated, t.header[name])
		}
		i.RemoteHost, i.Truncated = untruncated(r.cells[host], t.header[host], i.Truncated)
		i.RemotePort, i.Truncated = untruncated(r.cells[port], t.header[port], i.Truncated)
		ifs = append(ifs, i)
	}
	return ifs, nil
}

// untruncated is a cell's value, or "" with its column noted when NVUE cut it short: a prefix
// of a host name or a MAC would match the wrong peer, or none, as if it were whole.
func untruncated(cell, column string, truncated []string) (string, []string) {
	if texttable.Truncated(cell) {
		return "", append(truncated, column)
	}
	return cell, truncated
}
