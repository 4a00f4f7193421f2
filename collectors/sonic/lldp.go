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
	for _, t := range parseTables(out) {
		local, dev, pid := t.column("LocalPort"), t.column("RemoteDevice"), t.column("RemotePortID")
		if local < 0 || dev < 0 || pid < 0 {
			continue
		}
		descr := t.column("RemotePortDescr")
		ns := []topology.LLDPNeighbor{}
		for _, r := range t.rows {
			n := topology.LLDPNeighbor{LocalPort: r.cells[local], SystemName: r.cells[dev], PortID: r.cells[pid]}
			if descr >= 0 {
				n.PortDescr = r.cells[descr]
			}
			if n.LocalPort == "" {
				return nil, fmt.Errorf("%s: row without a LocalPort: %q", CmdLLDP, strings.TrimSpace(r.line))
			}
			ns = append(ns, n)
		}
		return ns, nil
	}
	return nil, fmt.Errorf("%s: no table with LocalPort, RemoteDevice and RemotePortID columns in the output", CmdLLDP)
}
