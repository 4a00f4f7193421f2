package linux

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Collect discovers the host's RDMA ports, selects the ports to audit and reads every fact of
// each. Facts that cannot be read are unknown with their evidence. The error is returned only
// when nothing is left to check: discovery failed at the transport, or no port was found.
func (Platform) Collect(ctx context.Context, r collectors.Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	e := newExecutor(r, spec.Conn.Sudo)
	forecast := forecastOf(ctx, spec.Conn.Sudo)
	guess := forecast.guess()
	qosParses := qosParsesOf(ctx)
	d := discover(ctx, e, guess)
	if err := unreachable(d); err != nil {
		return err
	}

	host := &topology.HostFacts{NCCLGIDIndex: ncclFact(d.nccl),
		LLDP: lldpNeighborsFact(d.lldpNeighbors), AppSettings: appSettingsFact(d.appSettings)}
	dev.Host = host
	configured := configuredGIDIndexes(spec, host.NCCLGIDIndex)

	// jobs are the ports to read: nic for the per-NIC commands, tos for the RDMA device's ToS.
	type job struct {
		w        *portWork
		nic, tos bool
	}
	var works []*portWork
	var jobs []job
	for _, t := range selectTargets(spec, d) {
		if host.Port(t.netdev) != nil {
			continue // already audited as a bond's slave
		}
		w := newPortWork(t)
		w.qosParses = qosParses
		works = append(works, w)
		host.Ports = append(host.Ports, w.p)
		w.fillFromDiscovery(d)
		w.p.ConfiguredGIDIndexes = append([]topology.ConfiguredGIDIndex(nil), configured...)
		if t.skip != "" {
			w.skipAll(t.skip)
			continue
		}
		slaves := d.lagSlaves(t.netdev)
		if slaves != nil {
			w.judgedOnSlaves(slaves)
		}
		jobs = append(jobs, job{w: w, nic: slaves == nil, tos: t.bound})
		if !t.bound {
			w.p.ToS = topology.Unknown[topology.ToS](topology.Evidence{Command: d.link.cmd, Error: fmt.Sprintf("no RDMA device is bound to %s", t.netdev)})
		}
		for _, name := range slaves {
			if host.Port(name) != nil {
				continue
			}
			sw := newSlaveWork(d, w.p, name)
			sw.qosParses = qosParses
			works = append(works, sw)
			host.Ports = append(host.Ports, sw.p)
			jobs = append(jobs, job{w: sw, nic: true})
		}
	}

	// Phase two: every port's commands at once; phase three: the fallbacks they call for.
	var ports []call
	for _, j := range jobs {
		ports = append(ports, j.w.portCalls(e, j.nic, j.tos)...)
	}
	e.phase(ctx, append(d.pgrepCalls(e), ports...))
	forecast.learn(guess, sentCommands(ports), d.guessFailed)
	var calls []call
	for _, j := range jobs {
		calls = append(calls, j.w.fallbackCalls(e, j.nic, j.tos)...)
	}
	e.phase(ctx, calls)
	d.readPgrep(ctx, e)
	host.LLDPAgent = lldpFact(d.lldpad, d.pgrep)

	// The tasks parse what the phases brought back; one sends a command itself only when
	// no phase did. A few goroutines take the ports in turn and run each one's tasks one
	// after another: with every answer in memory they only parse, and a goroutine a task
	// (48 on an 8-rail host) grew 48 stacks from their small start, copying them a fifth of
	// the host's collection CPU (a goroutine a port still grew 8).
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(maxInFlight, len(jobs)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(jobs)); i = next.Add(1) - 1 {
				j := jobs[i]
				if j.nic {
					j.w.collectNIC(ctx, e)
				}
				j.w.collectCounters(ctx, e)
				if j.tos {
					j.w.collectToS(ctx, e)
				}
			}
		})
	}
	wg.Wait() // tasks record failures in their facts
	for _, w := range works {
		if w.t.skip == "" && w.p.LAGSlaves == nil {
			w.decideDCBX(host.LLDPAgent)
		}
	}

	if len(host.Ports) == 0 {
		return fmt.Errorf("no RDMA netdev to audit: %s", noPortsReason(d))
	}
	return nil
}

// unreachable reports a discovery where no command reached the host at all, or where every
// command was refused: a restricted account, sudo asking for a password, a shell that is not
// a Linux one. `ip addr` succeeds on any Linux host, so a host where nothing succeeded is not
// read, and its facts would be a list of errors that looks like a collected host.
func unreachable(d *discovery) error {
	all := []result{d.ip, d.link, d.devinfo, d.gids, d.nccl, d.lldpad, d.lldpNeighbors, d.appSettings}
	var errs []error
	ran := false
	for _, r := range all {
		if r.ok() {
			return nil
		}
		ran = ran || r.ran()
		if r.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.cmd, r.err))
		}
	}
	if !ran {
		return fmt.Errorf("no discovery command was answered: %w", errors.Join(errs...))
	}
	return fmt.Errorf("no discovery command succeeded on the host (is the account restricted, does sudo want a password?): %s", refusals(all))
}

// refusals says how the commands failed, each distinct answer once with the commands that got
// it: eight commands refused alike make one line, not eight.
func refusals(rs []result) string {
	var order []string
	cmds := map[string][]string{}
	for _, r := range rs {
		why := r.failure()
		if _, seen := cmds[why]; !seen {
			order = append(order, why)
		}
		cmds[why] = append(cmds[why], "`"+r.cmd+"`")
	}
	parts := make([]string, len(order))
	for i, why := range order {
		parts[i] = strings.Join(cmds[why], ", ") + ": " + why
	}
	return strings.Join(parts, "; ")
}

// noPortsReason explains an empty port list.
func noPortsReason(d *discovery) string {
	if d.bindings == nil {
		return d.bindingSrc.Error
	}
	if len(d.bindings) == 0 {
		return "`rdma link show` lists no RDMA port (is the RDMA driver, e.g. mlx5_ib, loaded?)"
	}
	return "no RDMA port is bound to an Ethernet netdev"
}

// ncclFact reads NCCL_IB_GID_INDEX from /etc/nccl.conf; a missing file or key is "not set",
// which is unknown without an error.
func ncclFact(r result) topology.Fact[int] {
	src := topology.Evidence{Command: r.cmd}
	switch {
	case r.fileMissing():
		src.Excerpt = strings.TrimSpace(r.out.Stderr)
		return topology.Unknown[int](src)
	case !r.ok():
		src.Error = r.failure()
		return topology.Unknown[int](src)
	}
	idx, set, err := ParseNCCLConf(r.out.Stdout)
	src.Excerpt = linesWhere(r.out.Stdout, func(l string) bool { return strings.Contains(l, "NCCL_IB_GID_INDEX") })
	switch {
	case err != nil:
		src.Error = err.Error()
		return topology.Unknown[int](src)
	case !set:
		return topology.Unknown[int](src)
	}
	return topology.Known(idx, src)
}

// configuredGIDIndexes lists the GID indexes applications are told to use on this host.
func configuredGIDIndexes(spec inventory.DeviceSpec, nccl topology.Fact[int]) []topology.ConfiguredGIDIndex {
	var out []topology.ConfiguredGIDIndex
	if spec.GIDIndex != nil {
		out = append(out, topology.ConfiguredGIDIndex{Index: *spec.GIDIndex, Source: "inventory"})
	}
	if nccl.Usable() {
		out = append(out, topology.ConfiguredGIDIndex{Index: nccl.Value, Source: "/etc/nccl.conf"})
	}
	return out
}
