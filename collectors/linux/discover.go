package linux

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// discovery is what the once-per-host commands established.
type discovery struct {
	ip, link, devinfo, gids, nccl, lldpad, lldpNeighbors, appSettings result
	// pgrep is the lldpad process check, run only when systemctl could not answer.
	pgrep result

	netdevs   []topology.Netdev // nil when ip failed
	netdevErr string
	// The host-wide outputs cut per netdev, RDMA device and port, once for all ports' excerpts
	// (see excerpts.go); nil until first asked.
	ipByName map[string]*ipFields
	ipFields []ipFields    // ip's objects' excerpt fields, when parseIPAddr's scan read them
	devLines []devinfoLine // ibv_devinfo's excerpt lines
	gidLines []gidLine     // the GID dump's excerpt lines

	bindings   map[DevPort]string // RDMA port -> netdev
	bindingSrc topology.Evidence  // where bindings came from (rdma link, or the GID table)

	ports    map[DevPort]topology.RDMAPort
	portsErr string

	gidTable map[DevPort][]topology.GID
	gidsErr  string

	guessFailed bool // a command sent on the forecast's guess was not answered (stalled, lost)
}

// discover runs the host-wide commands as one phase and parses them. pgrep, when systemctl
// cannot answer, is left to the per-port phase (see pgrepCalls).
func discover(ctx context.Context, e executor, guess []string) *discovery {
	d := &discovery{}
	calls := make([]call, len(discoveryCommands), len(discoveryCommands)+len(guess))
	for i, cmd := range discoveryCommands {
		calls[i] = e.call(cmd, nil)
	}
	for _, cmd := range guess { // phase two, as the last hosts needed it (see portForecast)
		calls = append(calls, call{cmd: cmd})
	}
	e.phase(collectors.WithGuessed(ctx, guess), calls)
	d.guessFailed = e.pre.MarkGuessed(guess) > 0
	dsts := []*result{&d.ip, &d.link, &d.devinfo, &d.gids, &d.nccl, &d.lldpad, &d.lldpNeighbors, &d.appSettings} // discoveryCommands order
	for i, cmd := range discoveryCommands {
		*dsts[i] = e.run(ctx, cmd, nil)
	}

	if !d.ip.ok() {
		d.netdevErr = d.ip.failure()
	} else if nd, fields, err := parseIPAddr(d.ip.out.Stdout); err != nil {
		d.netdevErr = err.Error()
	} else {
		d.netdevs, d.ipFields = nd, fields
	}

	switch {
	case !d.devinfo.ok():
		d.portsErr = d.devinfo.failure()
	default:
		if p, lines, err := parseIbvDevinfo(d.devinfo.out.Stdout, true); err != nil {
			d.portsErr = err.Error()
		} else {
			d.ports, d.devLines = p, lines
		}
	}

	// grep exits 2 when some gid_attrs files are unreadable (empty slots): expected.
	switch {
	case !d.gids.ran():
		d.gidsErr = d.gids.failure()
	case d.gids.out.Stdout == "": // CmdGIDs prints no empty slot: none set, or none readable
		d.gidsErr = "no GID set in a readable GID sysfs file (" + d.gids.failure() + ")"
	default:
		if t, lines, err := parseSysfsGIDs(d.gids.out.Stdout, true); err != nil {
			d.gidsErr = err.Error()
		} else {
			d.gidTable, d.gidLines = t, lines
		}
	}

	d.bind()
	return d
}

// pgrepCalls is the lldpad process check, wanted only when systemctl could not answer.
func (d *discovery) pgrepCalls(e executor) []call {
	if noSystemd(d.lldpad) {
		return []call{e.call(CmdPgrepLLDPAD, nil)}
	}
	return nil
}

// readPgrep takes pgrep's answer (from the per-port phase) when it was wanted.
func (d *discovery) readPgrep(ctx context.Context, e executor) {
	if noSystemd(d.lldpad) {
		d.pgrep = e.run(ctx, CmdPgrepLLDPAD, nil)
	}
}

// bind maps RDMA ports to netdevs from `rdma link`, or, when rdma is missing or fails, from the
// netdev of each port's GID index 0 (the default GID always sits on the port's own netdev).
func (d *discovery) bind() {
	why := d.link.failure()
	if d.link.ok() {
		b, err := ParseRdmaLink(d.link.out.Stdout)
		if err == nil {
			d.bindings = b
			d.bindingSrc = topology.Evidence{Command: d.link.cmd, Excerpt: strings.TrimSpace(d.link.out.Stdout)}
			return
		}
		why = err.Error()
	}
	if d.gidTable == nil {
		d.bindingSrc = topology.Evidence{Command: d.link.cmd + "; " + d.gids.cmd,
			Error: "rdma link unavailable (" + why + ") and the GID table too (" + d.gidsErr + ")"}
		return
	}
	d.bindings = map[DevPort]string{}
	var lines []string
	for dp, gids := range d.gidTable {
		for _, g := range gids {
			if g.Index == 0 {
				d.bindings[dp] = g.Netdev
				lines = append(lines, fmt.Sprintf("%s GID[0] ndev %s", dp, g.Netdev))
			}
		}
	}
	sort.Strings(lines)
	d.bindingSrc = topology.Evidence{
		Command: d.link.cmd + "; " + d.gids.cmd,
		Excerpt: fmt.Sprintf("rdma link unavailable (%s); bound by GID index 0:\n%s", why, strings.Join(lines, "\n")),
	}
}

// netdev finds a netdev by name.
func (d *discovery) netdev(name string) (topology.Netdev, bool) {
	for _, n := range d.netdevs {
		if n.Name == name {
			return n, true
		}
	}
	return topology.Netdev{}, false
}

// uppers are the devices stacked on name (VLANs, macvlans: their lower is name).
func (d *discovery) uppers(name string) []topology.Netdev {
	var out []topology.Netdev
	for _, n := range d.netdevs {
		if n.Lower == name {
			out = append(out, n)
		}
	}
	return out
}

// boundPort finds the RDMA port bound to a netdev (the lowest one if several claim it).
func (d *discovery) boundPort(netdev string) (DevPort, bool) {
	for _, dp := range sortedDevPorts(d.bindings) {
		if d.bindings[dp] == netdev {
			return dp, true
		}
	}
	return DevPort{}, false
}

func sortedDevPorts[V any](m map[DevPort]V) []DevPort {
	out := make([]DevPort, 0, len(m))
	for dp := range m {
		out = append(out, dp)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dev != out[j].Dev {
			return out[i].Dev < out[j].Dev
		}
		return out[i].Port < out[j].Port
	})
	return out
}
