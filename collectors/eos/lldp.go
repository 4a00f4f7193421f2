package eos

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// CmdLLDP reads the LLDP neighbours.
const CmdLLDP = "show lldp neighbors detail | json"

// ParseLLDP parses `show lldp neighbors detail | json` into neighbours sorted by local port.
// Interface-name port IDs come back quoted ("\"Ethernet1\""); the quotes are removed.
func ParseLLDP(out string) ([]topology.LLDPNeighbor, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdLLDP, err)
	}
	var raw struct {
		Neighbors map[string]struct {
			Info *[]struct {
				SystemName string `json:"systemName"`
				ChassisID  string `json:"chassisId"`
				Intf       *struct {
					ID    string `json:"interfaceId"`
					Descr string `json:"interfaceDescription"`
				} `json:"neighborInterfaceInfo"`
				Mgmt []struct {
					Address string `json:"address"`
				} `json:"managementAddresses"`
			} `json:"lldpNeighborInfo"`
		} `json:"lldpNeighbors"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return nil, fmt.Errorf("%s: not JSON: %w", CmdLLDP, err)
	}
	if raw.Neighbors == nil {
		return nil, fmt.Errorf("%s: no \"lldpNeighbors\" object in the output", CmdLLDP)
	}
	var res []topology.LLDPNeighbor
	for local, n := range raw.Neighbors {
		if n.Info == nil {
			return nil, fmt.Errorf("%s: %s has no \"lldpNeighborInfo\" list", CmdLLDP, local)
		}
		for _, i := range *n.Info {
			if i.Intf == nil {
				return nil, fmt.Errorf("%s: neighbour on %s has no \"neighborInterfaceInfo\"", CmdLLDP, local)
			}
			nb := topology.LLDPNeighbor{
				LocalPort:  local,
				SystemName: i.SystemName,
				PortID:     strings.ReplaceAll(i.Intf.ID, `"`, ""),
				PortDescr:  i.Intf.Descr,
				ChassisID:  i.ChassisID,
			}
			if len(i.Mgmt) > 0 {
				nb.MgmtAddress = i.Mgmt[0].Address
			}
			res = append(res, nb)
		}
	}
	sort.SliceStable(res, func(a, b int) bool { return res[a].LocalPort < res[b].LocalPort })
	return res, nil
}
