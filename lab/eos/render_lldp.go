package eos

import (
	"strings"

	"github.com/roceaudit/roceaudit/lab/nosfmt"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

type lldpCaps struct {
	Bridge          bool `json:"bridge"`
	Router          bool `json:"router"`
	StationOnly     bool `json:"stationOnly"`
	WlanAccessPoint bool `json:"wlanAccessPoint"`
}

type lldpIntf struct {
	LinkAggregationStatus string `json:"linkAggregationStatus"`
	InterfaceIDType       string `json:"interfaceIdType"`
	InterfaceID           string `json:"interfaceId"`
	InterfaceDescription  string `json:"interfaceDescription"`
	OperMauType           string `json:"operMauType"`
	MaxFrameSize          int    `json:"maxFrameSize"`
	UnknownOrgDefinedTlvs []any  `json:"unknownOrgDefinedTlvs"`
}

type lldpMgmt struct {
	AddressType      string `json:"addressType"`
	Address          string `json:"address"`
	InterfaceNumType string `json:"interfaceNumType"`
	InterfaceNum     int    `json:"interfaceNum"`
	OidString        string `json:"oidString"`
}

type lldpInfo struct {
	SystemCapabilities    lldpCaps   `json:"systemCapabilities"`
	NeighborInterfaceInfo lldpIntf   `json:"neighborInterfaceInfo"`
	ChassisID             string     `json:"chassisId"`
	SystemName            string     `json:"systemName"`
	ManagementAddresses   []lldpMgmt `json:"managementAddresses,omitempty"`
	TTL                   int        `json:"ttl"`
	ChassisIDType         string     `json:"chassisIdType"`
}

// showLLDP renders `show lldp neighbors detail | json`: every LLDP interface, with the
// neighbour the state gives a port whose link is up. An interface-name port ID is printed
// quoted; a MAC port ID (a host's lldpd) dotted and unquoted, type macAddress, as in the
// napalm sample (test/eos/mocked_data/test_get_lldp_neighbors_detail/issue1153).
func showLLDP(sw *switchstate.Switch) string {
	type entry struct {
		Info []lldpInfo `json:"lldpNeighborInfo"`
	}
	all := map[string]entry{"Management1": {Info: []lldpInfo{}}}
	for _, p := range sw.Ports {
		e := entry{Info: []lldpInfo{}}
		if n := p.Neighbor; n != nil && p.Up {
			info := lldpInfo{
				NeighborInterfaceInfo: lldpIntf{LinkAggregationStatus: "notCapable", InterfaceIDType: "interfaceName",
					InterfaceID: `"` + n.PortID + `"`, InterfaceDescription: n.PortDescr, OperMauType: "Unknown",
					UnknownOrgDefinedTlvs: []any{}},
				ChassisID: nosfmt.DottedMAC(n.ChassisID), SystemName: n.SystemName, TTL: 120, ChassisIDType: "macAddress",
			}
			if n.PortIDIsMAC() {
				info.NeighborInterfaceInfo.InterfaceIDType = "macAddress"
				info.NeighborInterfaceInfo.InterfaceID = nosfmt.DottedMAC(n.PortID)
			}
			if isSwitchPort(n.PortID) {
				info.SystemCapabilities = lldpCaps{Bridge: true, Router: true}
			} else {
				info.SystemCapabilities = lldpCaps{StationOnly: true}
			}
			if n.MgmtIP != "" {
				info.ManagementAddresses = []lldpMgmt{{AddressType: "ipv4", Address: n.MgmtIP, InterfaceNumType: "ifIndex", InterfaceNum: 1}}
			}
			e.Info = append(e.Info, info)
		}
		all[p.Name] = e
	}
	return jsonOut(struct {
		Neighbors map[string]entry `json:"lldpNeighbors"`
	}{all})
}

// isSwitchPort tells a switch's port ID from a host's (its MAC, or a netdev), for the
// capabilities a neighbour announces.
func isSwitchPort(id string) bool {
	return strings.HasPrefix(id, "Ethernet") || strings.HasPrefix(id, "swp")
}
