package linux

import (
	"context"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/topology"
)

// collectPause reads 802.3x link pause.
func (w *portWork) collectPause(ctx context.Context, e executor) {
	r := w.run(ctx, e, CmdEthtoolPause)
	if !r.ok() {
		w.p.Pause = topology.Unknown[topology.Pause](topology.Evidence{Command: r.cmd, Error: r.failure()})
		return
	}
	p, err := ParseEthtoolPause(r.out.Stdout)
	if err != nil {
		w.p.Pause = topology.Unknown[topology.Pause](topology.Evidence{Command: r.cmd, Excerpt: strings.TrimSpace(r.out.Stdout), Error: err.Error()})
		return
	}
	w.p.Pause = topology.Known(p, topology.Evidence{Command: r.cmd, Excerpt: strings.TrimSpace(r.out.Stdout)})
}

// collectECN reads DCQCN enablement and CNP marking from the MLNX_OFED ecn sysfs.
func (w *portWork) collectECN(ctx context.Context, e executor) {
	r := w.run(ctx, e, CmdECN)
	src := topology.Evidence{Command: r.cmd, Excerpt: strings.TrimSpace(r.out.Stdout)}
	fail := func(why string) {
		src.Error = why
		w.p.DCQCN = topology.Unknown[topology.DCQCN](src)
		w.p.CNP = topology.Unknown[topology.CNP](src)
	}
	switch {
	case !r.ran():
		fail(r.failure())
		return
	case strings.TrimSpace(r.out.Stdout) == "":
		// grep exits 2 when the globs match nothing: the files do not exist.
		fail(fmt.Sprintf("no /sys/class/net/%s/ecn files (%s): the inbox mlx5 driver does not expose per-priority DCQCN; "+
			"it is firmware configuration (mlxconfig ROCE_CC_PRIO_MASK_P1, CNP_DSCP_P1, CNP_802P_PRIO_P1)", w.t.netdev, r.failure()))
		return
	}
	d, cnp, cnpKnown, err := ParseECN(r.out.Stdout)
	if err != nil {
		fail(err.Error())
		return
	}
	w.p.DCQCN = topology.Known(d, src)
	if cnpKnown {
		w.p.CNP = topology.Known(cnp, src)
		return
	}
	cnpSrc := src
	cnpSrc.Error = "cnp_dscp was not readable under " + fmt.Sprintf("/sys/class/net/%s/ecn/roce_np", w.t.netdev)
	w.p.CNP = topology.Unknown[topology.CNP](cnpSrc)
}

// collectToS finds the default RoCE ToS: the MLNX_OFED global traffic class first, then the
// rdma_cm configfs default when its directory already exists. roceaudit never creates it.
func (w *portWork) collectToS(ctx context.Context, e executor) {
	tc := w.run(ctx, e, CmdTrafficClass)
	var notes []string
	switch {
	case tc.ok():
		v, set, err := ParseTrafficClass(tc.out.Stdout)
		if err != nil {
			w.p.ToS = topology.Unknown[topology.ToS](topology.Evidence{Command: tc.cmd, Excerpt: strings.TrimSpace(tc.out.Stdout), Error: err.Error()})
			return
		}
		if set {
			w.p.ToS = topology.Known(topology.ToS{Value: v, Set: true, From: "traffic_class"},
				topology.Evidence{Command: tc.cmd, Excerpt: linesWhere(tc.out.Stdout, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "Global") })})
			return
		}
		notes = append(notes, "traffic_class: not set (empty)")
	default:
		notes = append(notes, "traffic_class: "+tc.failure())
	}

	def := w.run(ctx, e, CmdDefaultRoCEToS) // needsDefaultToS(tc) holds here
	cmds := tc.cmd + "; " + def.cmd
	if def.ok() {
		v, err := ParseDefaultRoCEToS(def.out.Stdout)
		if err != nil {
			w.p.ToS = topology.Unknown[topology.ToS](topology.Evidence{Command: cmds, Excerpt: strings.Join(notes, "\n"), Error: err.Error()})
			return
		}
		notes = append(notes, "default_roce_tos: "+strings.TrimSpace(def.out.Stdout))
		w.p.ToS = topology.Known(topology.ToS{Value: v, Set: v != 0, From: "default_roce_tos"},
			topology.Evidence{Command: cmds, Excerpt: strings.Join(notes, "\n")})
		return
	}
	notes = append(notes, "default_roce_tos: "+def.failure())
	// Only an absent configfs entry means "not readable without a write"; a transport error,
	// a permission problem or a sudo prompt is a read that failed.
	if !def.ran() || !strings.Contains(def.out.Stderr, "No such file or directory") {
		w.p.ToS = topology.Unknown[topology.ToS](topology.Evidence{Command: cmds, Excerpt: strings.Join(notes, "\n"), Error: def.failure()})
		return
	}
	dev, port := w.vars["dev"], w.vars["port"]
	w.p.ToS = topology.Known(topology.ToS{Unreadable: true}, topology.Evidence{Command: cmds, Excerpt: strings.Join(notes, "\n"),
		Error: fmt.Sprintf("rdma_cm's default ToS is only readable in configfs, and /sys/kernel/config/rdma_cm/%s exists only once "+
			"someone creates it (mkdir, a write), which roceaudit never does; verify by hand: cma_roce_tos -d %s -p %s", dev, dev, port)})
}

// collectCounters merges ethtool -S with the RDMA hw_counters ("rdma_" prefixed). Either
// source alone is enough for a known fact; a failed one is named in the evidence.
func (w *portWork) collectCounters(ctx context.Context, e executor) {
	st := w.run(ctx, e, CmdEthtoolStats)
	var hw *result // read only for a port with an RDMA device
	if w.t.bound {
		r := w.run(ctx, e, CmdHwCounters)
		hw = &r
	}
	w.p.Counters = countersFact(st, hw, collectors.CounterFilterOf(ctx))
}

// countersFact is the counters fact of ethtool -S (st) and hw_counters (hw, nil when not
// read), keeping the counters filter keeps (every one if filter is nil).
func countersFact(st result, hw *result, filter *collectors.CounterFilter) topology.Fact[map[string]int64] {
	counters := map[string]int64{}
	var cmds, errs []string
	// The excerpt's lines, cut by the parsers: a port keeps a few dozen, joined once at their
	// exact size (a builder per output grew many times).
	var keptBuf [64]string
	kept := keptBuf[:0]
	read := 0 // counters read, kept or not

	// The hw counters are read first, so that the map is made at its final size: room for
	// every hw line made an audit's map of 38 counters twice the size it needed (128 slots,
	// not 64).
	var hwBuf, keepBuf [64]hwCounter
	var hwKeptBuf [32]string
	var hwKeep []hwCounter // the hw counters kept, named rdma_NAME
	var hwKept []string    // their excerpt's lines
	var hwErr error
	if hw != nil {
		var cs []hwCounter
		cs, hwKept, hwErr = parseHwCounters(hw.out.Stdout, hwBuf[:0], hwKeptBuf[:0])
		if hw.ran() && hwErr == nil {
			read += len(cs)
			hwKeep = keptHwCounters(cs, filter, keepBuf[:0])
		}
	}
	cmds = append(cmds, st.cmd)
	if !st.ok() {
		errs = append(errs, st.cmd+": "+st.failure())
	} else if m, rows, k, err := parseEthtoolStats(st.out.Stdout, len(hwKeep), filter, kept); err != nil {
		errs = append(errs, err.Error())
	} else {
		counters = m // the parser's own map: the hw counters join it, nothing is copied
		read += rows
		kept = k
	}

	if hw != nil {
		cmds = append(cmds, hw.cmd)
		switch {
		case !hw.ran():
			errs = append(errs, hw.cmd+": "+hw.failure())
		case hwErr != nil:
			errs = append(errs, fmt.Sprintf("%s (%s): %v", hw.cmd, hw.failure(), hwErr))
		default:
			for _, c := range hwKeep {
				counters[c.name] = c.v
			}
			kept = append(kept, hwKept...)
		}
	}

	// The two outputs' excerpts were joined by a newline and trimmed: the same as trimming
	// their lines joined, since a kept line is never blank.
	src := topology.Evidence{Command: strings.Join(cmds, "; "), Excerpt: strings.TrimSpace(strings.Join(kept, "\n")), Error: strings.Join(errs, "; ")}
	if read == 0 { // none read; some read but none kept (filtered) is a known, empty set
		return topology.Unknown[map[string]int64](src)
	}
	return topology.Known(counters, src)
}

// needsDefaultToS is a traffic_class answer that collectToS goes on to default_roce_tos after:
// unreadable, or readable and not set.
func needsDefaultToS(tc result) bool {
	if !tc.ok() {
		return true
	}
	_, set, err := ParseTrafficClass(tc.out.Stdout)
	return err == nil && !set
}
