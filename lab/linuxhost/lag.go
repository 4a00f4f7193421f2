package linuxhost

import (
	"fmt"
	"slices"
)

// ipBondData is the bond's info_data as iproute2 ip/iplink_bond.c prints it (the keys the lab
// renders, in print order), for an 802.3ad bond with fast LACP.
type ipBondData struct {
	Mode           string `json:"mode"`
	MIIMon         int    `json:"miimon"`
	UpDelay        int    `json:"updelay"`
	DownDelay      int    `json:"downdelay"`
	XmitHashPolicy string `json:"xmit_hash_policy"`
	LACPRate       string `json:"ad_lacp_rate"`
	ADSelect       string `json:"ad_select"`
}

var bondData = &ipBondData{Mode: "802.3ad", MIIMon: 100, XmitHashPolicy: "layer3+4", LACPRate: "fast", ADSelect: "stable"}

// ipBondSlave is a slave's info_slave_data (iplink_bond_slave.c).
type ipBondSlave struct {
	State      string `json:"state"`
	MIIStatus  string `json:"mii_status"`
	PermHWAddr string `json:"perm_hwaddr"`
}

// MakeRoCELAG enslaves the PFs to a new 802.3ad bond, as RoCE LAG needs (both PFs of one card,
// nothing else): the bond takes the first slave's MAC, MTU and addresses, every slave shows
// the bond's MAC (keeping its own as PermMAC), and mlx5_core replaces the PFs' RDMA devices by
// one, mlx5_bond_N, bound to the bond. The PFs keep their NIC settings (DCB, pause, DCQCN).
func (h *Host) MakeRoCELAG(bond string, slaves ...string) error {
	if len(slaves) == 0 || h.Netdev(bond) != nil {
		return fmt.Errorf("%s: a RoCE LAG needs a new bond name and slaves", h.Name)
	}
	first := h.Netdev(slaves[0])
	if first == nil {
		return fmt.Errorf("%s: no netdev %s", h.Name, slaves[0])
	}
	b := &Netdev{Name: bond, Index: len(h.Netdevs) + 1, Kind: "bond", MTU: first.MTU, MAC: first.MAC,
		AdminUp: true, Carrier: true, Addrs: first.Addrs}
	var dev *RDMADevice
	var port *RDMAPort
	for _, name := range slaves {
		s := h.Netdev(name)
		if s == nil {
			return fmt.Errorf("%s: no netdev %s", h.Name, name)
		}
		s.Master, s.PermMAC, s.MAC, s.Addrs = bond, s.MAC, first.MAC, nil
		if d, p := h.Port(name); d != nil {
			if dev == nil {
				dev, port = d, p
			}
			h.RDMA = slices.DeleteFunc(h.RDMA, func(x *RDMADevice) bool { return x == d })
		}
	}
	if dev == nil {
		return fmt.Errorf("%s: no RDMA device on %v", h.Name, slaves)
	}
	lagPort := *port
	lagPort.Netdev = bond
	lag := *dev
	lag.Name, lag.Ports = fmt.Sprintf("mlx5_bond_%d", h.bonds()), []*RDMAPort{&lagPort}
	h.RDMA = append(h.RDMA, &lag)
	h.Netdevs = append(h.Netdevs, b)
	return nil
}

// bonds counts the RoCE LAG devices already made.
func (h *Host) bonds() int {
	n := 0
	for _, nd := range h.Netdevs {
		if nd.Kind == "bond" {
			n++
		}
	}
	return n
}
