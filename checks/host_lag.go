package checks

import (
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// perNIC are the host checks of settings each NIC holds for itself: on a RoCE LAG they are
// judged on every slave PF, where a result names the slave at fault. The others (RDMA port,
// GIDs, MTU, ToS, what applications send) belong to the bond and its mlx5_bond_N device.
var perNIC = map[string]bool{
	"HOST-TRUST": true, "HOST-DSCP-MAP": true, "HOST-PFC": true, "HOST-PAUSE": true,
	"HOST-ECN": true, "HOST-CNP": true, "HOST-DCBX": true,
}

// hostPortChecks are the host-port checks, routed for RoCE LAG.
func hostPortChecks() []*Check {
	cs := append(hostChecks(), hostAppTC())
	for _, c := range cs {
		c.hostPort = lagRouted(c.ID, c.hostPort)
	}
	return cs
}

// lagRouted skips a check where a RoCE LAG puts its subject on the other side (the bond for a
// per-NIC setting, a slave for the RDMA device's) and says where the result is.
func lagRouted(id string, eval func(recipe.Recipe, *topology.Device, *topology.HostPort) verdict) func(recipe.Recipe, *topology.Device, *topology.HostPort) verdict {
	return func(r recipe.Recipe, d *topology.Device, p *topology.HostPort) verdict {
		switch {
		case p.LAGSlaves != nil && perNIC[id]:
			if len(p.LAGSlaves) == 0 {
				return verdict{status: Error, actual: "bond without slaves",
					message: p.Netdev + " is a bond without slave PFs: no NIC carries its per-NIC settings", evidence: ev(p.Link.Source)}
			}
			return verdict{status: Skip, actual: "RoCE LAG bond over " + strings.Join(p.LAGSlaves, ", "),
				message: "a per-NIC setting: judged on each slave PF (" + strings.Join(p.LAGSlaves, ", ") + ")"}
		case p.LAGMaster != "" && !perNIC[id]:
			return verdict{status: Skip, actual: "slave of bond " + p.LAGMaster,
				message: "RoCE LAG: judged on the bond " + p.LAGMaster + " and its RDMA device"}
		}
		v := eval(r, d, p)
		if p.LAGMaster != "" && v.status != Pass && v.status != Skip {
			v.message += " (slave PF " + p.Netdev + " of RoCE LAG bond " + p.LAGMaster + ")"
		}
		return v
	}
}
