package linux

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/internal/memo"
	"github.com/roceaudit/roceaudit/topology"
)

// portWork is one audited port being filled: each task writes its own fields.
type portWork struct {
	t    target
	p    *topology.HostPort
	vars map[string]string // {if}, {dev}, {port}

	// dcbxSrc is the evidence of the DCB owner (mlnx_qos DCBX line or dcb dcbx), and
	// dcbxErr why it is missing, both set by the QoS task.
	dcbxSrc topology.Evidence
	dcbxErr string

	mq        *parsedQoS             // see parseMlnxQos
	qosParses *memo.Memo[*parsedQoS] // the run's (qosParsesOf), or nil

	cmds    []expansion // the commands the phases expanded, for the tasks (see cmd)
	cmdsBuf [8]expansion
}

func newPortWork(t target) *portWork {
	w := &portWork{t: t, p: &topology.HostPort{Netdev: t.netdev}, vars: map[string]string{"if": t.netdev}}
	w.cmds = w.cmdsBuf[:0] // room for a port's commands, in the one allocation
	if t.bound {
		w.p.RDMADevice, w.p.RDMAPort = t.dp.Dev, t.dp.Port
		w.vars["dev"], w.vars["port"] = t.dp.Dev, strconv.Itoa(t.dp.Port)
	}
	return w
}

// fillFromDiscovery sets the facts that discovery already holds: link, uppers, RDMA state, GIDs.
func (w *portWork) fillFromDiscovery(d *discovery) {
	p := w.p
	switch {
	case d.netdevs == nil:
		p.Link = topology.Unknown[topology.Netdev](topology.Evidence{Command: d.ip.cmd, Error: d.netdevErr})
	default:
		if n, ok := d.netdev(w.t.netdev); ok {
			p.Link = topology.Known(n, topology.Evidence{Command: d.ip.cmd, Excerpt: d.ipExcerpt(n.Name)})
			p.Uppers = d.uppers(n.Name)
		} else {
			p.Link = topology.Unknown[topology.Netdev](topology.Evidence{Command: d.ip.cmd,
				Error: fmt.Sprintf("netdev %s does not exist on this host (absent from `ip addr`)", w.t.netdev)})
		}
	}

	if !w.t.bound {
		why := fmt.Sprintf("no RDMA device is bound to %s", w.t.netdev)
		if d.bindings == nil {
			why = "RDMA port bindings unknown: " + d.bindingSrc.Error
			p.BindingsUnknown = true
		}
		src := d.bindingSrc
		src.Error = why
		p.State = topology.Unknown[topology.RDMAPort](src)
		p.GIDs = topology.Unknown[[]topology.GID](src)
		return
	}

	dp := w.t.dp
	switch {
	case d.ports == nil:
		p.State = topology.Unknown[topology.RDMAPort](topology.Evidence{Command: d.devinfo.cmd, Error: d.portsErr})
	default:
		if st, ok := d.ports[dp]; ok {
			p.State = topology.Known(st, topology.Evidence{Command: d.devinfo.cmd, Excerpt: d.devinfoExcerpt(dp)})
		} else {
			p.State = topology.Unknown[topology.RDMAPort](topology.Evidence{Command: d.devinfo.cmd,
				Error: fmt.Sprintf("ibv_devinfo did not list %s port %d", dp.Dev, dp.Port)})
		}
	}

	if d.gidTable == nil {
		p.GIDs = topology.Unknown[[]topology.GID](topology.Evidence{Command: d.gids.cmd, Error: d.gidsErr})
		return
	}
	gids := d.gidTable[dp]
	if gids == nil {
		gids = []topology.GID{}
	}
	p.GIDs = topology.Known(gids, topology.Evidence{Command: d.gids.cmd, Excerpt: d.gidExcerpt(dp, gids)})
}

// skipAll marks every fact that needs a per-port command as not collected.
func (w *portWork) skipAll(why string) {
	src := topology.Evidence{Error: why}
	w.p.QoS = topology.Unknown[topology.HostQoS](src)
	w.p.Pause = topology.Unknown[topology.Pause](src)
	w.p.DCQCN = topology.Unknown[topology.DCQCN](src)
	w.p.CNP = topology.Unknown[topology.CNP](src)
	w.p.ToS = topology.Unknown[topology.ToS](src)
	w.p.DCBX = topology.Unknown[topology.DCBX](src)
	w.p.Counters = topology.Unknown[map[string]int64](src)
	w.dcbxErr = why
}
