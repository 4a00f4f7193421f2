package nxos

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/natural"
	"github.com/roceaudit/roceaudit/topology"
)

// CmdLLDP reads the LLDP neighbours.
const CmdLLDP = "show lldp neighbors detail | json"

// absent are the placeholders NX-OS prints for a TLV the neighbour did not send.
var absent = map[string]bool{"null": true, "not advertised": true, "Address not advertised": true}

func tlv(s string) string {
	if absent[s] {
		return ""
	}
	return s
}

// ParseLLDP parses `show lldp neighbors detail | json`. An empty output (NX-OS prints
// nothing when there is no neighbour) is zero neighbours.
func ParseLLDP(out string) ([]topology.LLDPNeighbor, error) {
	if strings.TrimSpace(out) == "" {
		return []topology.LLDPNeighbor{}, nil
	}
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdLLDP, err)
	}
	b, err := body(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CmdLLDP, err)
	}
	var raw struct {
		Table *struct {
			Row json.RawMessage `json:"ROW_nbor_detail"`
		} `json:"TABLE_nbor_detail"`
		Count *num `json:"neigh_count"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: unexpected shape: %w", CmdLLDP, err)
	}
	if raw.Table == nil {
		if raw.Count != nil && raw.Count.Set && raw.Count.V == 0 {
			return []topology.LLDPNeighbor{}, nil
		}
		return nil, fmt.Errorf("%s: no TABLE_nbor_detail in the output", CmdLLDP)
	}
	type row struct {
		Local    string `json:"l_port_id"`
		SysName  string `json:"sys_name"`
		PortID   string `json:"port_id"`
		PortDesc string `json:"port_desc"`
		Chassis  string `json:"chassis_id"`
		Mgmt     string `json:"mgmt_addr"`
	}
	rs, err := rows[row](raw.Table.Row)
	if err != nil {
		return nil, fmt.Errorf("%s: ROW_nbor_detail: %w", CmdLLDP, err)
	}
	res := []topology.LLDPNeighbor{}
	for _, r := range rs {
		if r.Local == "" {
			return nil, fmt.Errorf("%s: a neighbour row has no l_port_id", CmdLLDP)
		}
		res = append(res, topology.LLDPNeighbor{LocalPort: LongName(r.Local), SystemName: tlv(r.SysName),
			PortID: tlv(r.PortID), PortDescr: tlv(r.PortDesc), ChassisID: tlv(r.Chassis), MgmtAddress: tlv(r.Mgmt)})
	}
	sort.SliceStable(res, func(a, b int) bool { return natural.Order{}.Less(res[a].LocalPort, res[b].LocalPort) })
	return res, nil
}
