// Package transfer runs the test RDMA transfer: perftest between two host ports with the RoCE
// v2 GID index of each end, bounded in time, with counter snapshots before and after on both
// hosts and on every switch port of every equal-cost path. The server side is always stopped.
package transfer

import (
	"fmt"
	"net"

	"github.com/roceaudit/roceaudit/topology"
)

// side is one end of the transfer as perftest needs it.
type side struct {
	ep       topology.Endpoint
	port     *topology.HostPort
	gidIndex int
	ipv4     string
}

// pickSide chooses the port of an endpoint and its RoCE v2 GID for an IPv4 address: perftest's
// setup channel needs IPv4, and the GID is matched on netdev, type and address, never an index.
func pickSide(snap *topology.Snapshot, ep topology.Endpoint) (side, error) {
	var dev *topology.Device
	for _, d := range snap.Devices {
		if d.Name == ep.Device {
			dev = d
		}
	}
	if dev == nil || !dev.Reachable || dev.Host == nil {
		why := "not reachable"
		if dev != nil && dev.Error != "" {
			why = dev.Error
		}
		return side{}, fmt.Errorf("%s: %s", ep.Device, why)
	}
	var lastErr error
	for _, p := range dev.Host.Ports {
		if ep.Interface != "" && p.Netdev != ep.Interface {
			continue
		}
		s, err := sideOf(ep.Device, p)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("%s has no audited RDMA port %s", ep.Device, ep.Interface)
	}
	return side{}, lastErr
}

func sideOf(host string, p *topology.HostPort) (side, error) {
	ep := topology.Endpoint{Device: host, Interface: p.Netdev}
	if p.RDMADevice == "" {
		return side{}, fmt.Errorf("%s: no RDMA device bound", ep)
	}
	if !p.GIDs.Usable() || !p.Link.Usable() {
		return side{}, fmt.Errorf("%s: GID table or addresses unknown", ep)
	}
	for _, n := range append([]topology.Netdev{p.Link.Value}, p.Uppers...) {
		for _, a := range n.Addresses {
			ip := net.ParseIP(a)
			if ip == nil || ip.To4() == nil {
				continue
			}
			for _, g := range p.GIDs.Value {
				if g.Type == topology.GIDTypeV2 && g.Netdev == n.Name && net.ParseIP(g.IP).Equal(ip) {
					return side{ep: ep, port: p, gidIndex: g.Index, ipv4: ip.To4().String()}, nil
				}
			}
		}
	}
	return side{}, fmt.Errorf("%s: no RoCE v2 GID for an IPv4 address (perftest is never run on a RoCE v1 index)", ep)
}
