package sonic

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// ParseLLDPTable parses `show lldp table` (sonic-utilities lldpshow): a tabulate table with
// LocalPort, RemoteDevice, RemotePortID, Capability and RemotePortDescr columns, between a
// "Capability codes" line and a "Total entries displayed" line. Management ports (eth0) are
// kept: link discovery decides what is in the inventory.
func ParseLLDPTable(out string) ([]topology.LLDPNeighbor, error) {
	var ns []topology.LLDPNeighbor // nil until a table has the columns
	err := scanTables(out, func(header []string) (func([]string, string) error, error) {
		if ns != nil { // the first table with the columns is the one
			return nil, errStopTables
		}
		local, dev, pid := columnOf(header, "LocalPort"), columnOf(header, "RemoteDevice"), columnOf(header, "RemotePortID")
		if local < 0 || dev < 0 || pid < 0 {
			return nil, nil
		}
		descr := columnOf(header, "RemotePortDescr")
		ns = []topology.LLDPNeighbor{}
		return func(cells []string, line string) error {
			n := topology.LLDPNeighbor{LocalPort: cells[local], SystemName: cells[dev], PortID: cells[pid]}
			if descr >= 0 {
				n.PortDescr = cells[descr]
			}
			if n.LocalPort == "" {
				return fmt.Errorf("%s: row without a LocalPort: %q", CmdLLDP, strings.TrimSpace(line))
			}
			ns = append(ns, n)
			return nil
		}, nil
	})
	if err != nil {
		return nil, err
	}
	if ns == nil {
		return nil, fmt.Errorf("%s: no table with LocalPort, RemoteDevice and RemotePortID columns in the output", CmdLLDP)
	}
	return ns, nil
}
