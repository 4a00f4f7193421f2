package linux

import (
	"context"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// RoCE LAG (NVIDIA MLNX_OFED/DOCA "RoCE LAG"): when both PFs of a dual-port ConnectX are the
// only slaves of one bond (mode active-backup, balance-xor or 802.3ad), the driver replaces
// their two RDMA devices with one, mlx5_bond_N, bound to the bond: its GIDs name the bond and
// its ToS applies to both ports. DCB (trust, PFC, ETS), 802.3x pause and DCQCN stay per PF —
// the bond itself has none (`mlnx_qos -i bond0` fails) — so they are read on each slave.

// lagSlaves are the slaves of netdev when it is a bond, in kernel order; nil otherwise.
func (d *discovery) lagSlaves(netdev string) []string {
	n, ok := d.netdev(netdev)
	if !ok || n.Kind != "bond" {
		return nil
	}
	out := []string{}
	for _, s := range d.netdevs {
		if s.Master == netdev {
			out = append(out, s.Name)
		}
	}
	return out
}

// collectNIC reads the per-NIC settings: DCB, pause, DCQCN, the pause-storm timeout.
func (w *portWork) collectNIC(ctx context.Context, e executor) {
	w.collectQoS(ctx, e)
	w.collectPause(ctx, e)
	w.collectECN(ctx, e)
	w.collectStormTimeout(ctx, e)
}

// judgedOnSlaves marks the bond's per-NIC facts as not the bond's own: each slave PF holds them.
func (w *portWork) judgedOnSlaves(slaves []string) {
	w.p.LAGSlaves = slaves
	why := fmt.Sprintf("%s is a bond: DCB, pause and DCQCN are per NIC, read on its slave PFs (%s)", w.t.netdev, strings.Join(slaves, ", "))
	if len(slaves) == 0 {
		why = w.t.netdev + " is a bond without slaves: no NIC carries its DCB, pause or DCQCN settings"
	}
	src := topology.Evidence{Command: CmdIPAddr}
	w.p.QoS = topology.Unsupported(topology.HostQoS{}, why, src)
	w.p.Pause = topology.Unsupported(topology.Pause{}, why, src)
	w.p.DCQCN = topology.Unsupported(topology.DCQCN{}, why, src)
	w.p.CNP = topology.Unsupported(topology.CNP{}, why, src)
	w.p.DCBX = topology.Unsupported(topology.DCBX{}, why, src)
	w.p.PFCPreventionMs = topology.Unsupported(0, why, src)
}

// newSlaveWork is the audit of one slave PF of bond: its link from discovery; RDMA state,
// GIDs and ToS belong to the bond's RDMA device.
func newSlaveWork(d *discovery, bond *topology.HostPort, name string) *portWork {
	w := newPortWork(target{netdev: name})
	w.p.LAGMaster = bond.Netdev
	w.fillFromDiscovery(d)
	rdma := bond.RDMADevice
	if rdma == "" {
		rdma = "its RDMA device"
	}
	why := fmt.Sprintf("slave of RoCE LAG bond %s: RDMA runs on %s, bound to the bond", bond.Netdev, rdma)
	src := topology.Evidence{Command: d.link.cmd}
	w.p.State = topology.Unsupported(topology.RDMAPort{}, why, src)
	w.p.GIDs = topology.Unsupported([]topology.GID(nil), why, src)
	w.p.ToS = topology.Unsupported(topology.ToS{}, why, src)
	return w
}
