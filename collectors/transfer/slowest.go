package transfer

import "github.com/roceaudit/roceaudit/topology"

// slowestLink is the slowest known port speed the transfer crosses, and that port: the two
// host ports (ibv_devinfo width x lane speed) and every port of every equal-cost path, switch
// ports with the speed their NOS shows. Ports whose speed is unknown are passed over; ties
// keep the first port met, client first. 0 and "" when no speed is known.
func slowestLink(snap *topology.Snapshot, client, server side, paths [][]topology.Hop) (float64, string) {
	best, name := 0.0, ""
	consider := func(ref topology.PortRef, gbps float64, known bool) {
		if known && gbps > 0 && (best == 0 || gbps < best) {
			best, name = gbps, ref.String()
		}
	}
	host := func(ep topology.Endpoint, p *topology.HostPort) {
		consider(topology.PortRef{Device: ep.Device, Interface: ep.Interface}, p.State.Value.SpeedGbps, p.State.Usable())
	}
	host(client.ep, client.port)
	devices := map[string]*topology.Device{}
	for _, d := range snap.Devices {
		devices[d.Name] = d
	}
	for _, hops := range paths {
		for _, h := range hops {
			for _, port := range []string{h.InPort, h.OutPort} {
				if sp := switchPort(devices[h.Device], port); sp != nil {
					consider(topology.PortRef{Device: h.Device, Interface: sp.Name}, sp.Speed.Value, sp.Speed.Usable())
				}
			}
		}
	}
	host(server.ep, server.port)
	return best, name
}

// switchPort finds a switch's port by a name as a path spells it (LLDP may shorten it).
func switchPort(d *topology.Device, name string) *topology.SwitchPort {
	if d == nil || d.Switch == nil || name == "" {
		return nil
	}
	key := topology.NormalizePort(name)
	for _, p := range d.Switch.Ports {
		if topology.NormalizePort(p.Name) == key {
			return p
		}
	}
	return nil
}
