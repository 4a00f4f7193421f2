package cumulus

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/evidence"
	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
	"github.com/roceaudit/roceaudit/collectors/internal/texttable"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// DCBXUnsupported is why DCBX is unsupported (see the package comment).
const DCBXUnsupported = "Cumulus Linux does not negotiate DCBX (no CEE, never " +
	"willing); it configures PFC and ETS locally and can only transmit IEEE DCBX TLVs"

// Collect sends switchCommands, then roceCommands or genericCommands for every port, and fills dev.Switch.
// Facts that cannot be read are Unknown with the command and the reason; Collect itself fails
// only when there is no port to report on.
func (Platform) Collect(ctx context.Context, r collectors.Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	sw := &topology.SwitchFacts{Ports: []*topology.SwitchPort{}}
	dev.Switch = sw
	// The switch-wide commands are fixed: one batch (one session on a runner that batches).
	r = collectors.Prefetch(ctx, r, 1, []string{CmdSystem, jsonCmd(CmdInterfaceLLDP), CmdRoCE})

	if nos, ev := evidence.Read(ctx, r, CmdSystem, ParseSystem); ev.Error == "" {
		sw.NOS = nos
	}

	nr := &nvReader{r: r}
	ifs, ifEv := read(ctx, nr, CmdInterfaceLLDP, ParseInterfaceLLDPJSON, ParseInterfaceLLDP)
	sw.LLDP = lldpFact(ifs, ifEv)

	roce, roceEv := evidence.Read(ctx, r, CmdRoCE, ParseRoCE)
	if roceEv.Error == "" {
		roceEv.Excerpt = roce.Excerpts[ExMode]
	}

	names := portNames(ifs, spec.Interfaces)
	if len(names) == 0 {
		return fmt.Errorf("cumulus %s: no port to audit: %s", spec.Name, orNone(ifEv.Error))
	}
	sw.Ports = collectPorts(ctx, nr, names, roce, roceEv)
	return nil
}

// portsInFlight bounds the ports read at once. A leaf answers five commands per port, one
// after another, so hundreds of ports in turn are hundreds of round trips (seconds at a few
// milliseconds each, past a device timeout); each port in flight takes one session of the
// connection, and sshclient opens at most DefaultMaxSessions (8) at a time.
const portsInFlight = 8

// collectPorts reads every port, the first alone and the rest portsInFlight at a time; the
// ports come back in names' order. The first port settles whether the switch takes `-o json`
// for per-port commands before the others ask, so a switch that refuses it is sent one JSON
// command per kind, not one per port in flight. What the first port sent foretells what
// the others will: their commands go ahead in portsInFlight batches (a session each, on a
// runner that batches) rather than a session per command, and each port then reads its
// answers from them; a command no batch brought is sent on its own.
func collectPorts(ctx context.Context, nr *nvReader, names []string, roce *RoCE, roceEv topology.Evidence) []*topology.SwitchPort {
	ports := make([]*topology.SwitchPort, len(names))
	sent := &switchcollect.Sent{Next: collectors.Prefetch(ctx, nr.r, 1, firstPortCommands(ctx, nr, names[0], roce, roceEv))}
	memo := &portMemo{}
	first := &nvReader{r: sent, memo: memo}
	first.noJSON.Store(nr.noJSON.Load())
	ports[0] = withBufferSizes(collectPort(ctx, first, names[0], roce, roceEv), roce)
	noJSON := first.noJSON.Load()
	var did []string
	for _, c := range sent.Commands() {
		if !noJSON || !strings.HasSuffix(c, jsonCmd("")) {
			did = append(did, c)
		}
	}
	tmpls := portTemplates(did, names[0])
	groups := make([][]string, portsInFlight)
	for i := range groups {
		groups[i] = make([]string, 0, (len(names)/portsInFlight+1)*len(tmpls))
	}
	nameErrs := make([]error, len(names)) // ValidName once a port (a regexp)
	for i, name := range names[1:] {
		if nameErrs[i+1] = topology.ValidName(name); texttable.Truncated(name) || nameErrs[i+1] != nil {
			continue // collectPort sends nothing for it
		}
		groups[i%portsInFlight] = appendPortCommands(groups[i%portsInFlight], tmpls, name)
	}
	rest := &nvReader{r: collectors.Prefetch(ctx, nr.r, portsInFlight, groups...), memo: memo}
	rest.noJSON.Store(noJSON)
	// portsInFlight workers take the ports in order, as a goroutine a port did: a worker's
	// stack grows once, not again for each port (stack growth was ~5% of a leaf's CPU).
	var next atomic.Int64
	next.Store(1)
	var wg sync.WaitGroup
	for range min(portsInFlight, len(names)-1) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				ports[i] = withBufferSizes(collectValidPort(ctx, rest, names[i], nameErrs[i], roce, roceEv), roce)
			}
		})
	}
	wg.Wait() // a port's failures are in its facts
	nr.noJSON.Store(rest.noJSON.Load())
	return ports
}

// portTemplates are cmds split at every word that is port from, for strings.Join with
// another port: switchcollect.ForPort's commands, without splitting and joining every
// command again for each port. Commands that do not name from are dropped.
func portTemplates(cmds []string, from string) [][]string {
	var out [][]string
	for _, c := range cmds {
		var parts []string
		start := 0 // of the current part
		for i := 0; i <= len(c); {
			end := strings.IndexByte(c[i:], ' ')
			if end < 0 {
				end = len(c)
			} else {
				end += i
			}
			if c[i:end] == from {
				parts = append(parts, c[start:i])
				start = end
			}
			i = end + 1
		}
		if parts != nil {
			out = append(out, append(parts, c[start:]))
		}
	}
	return out
}

// appendPortCommands appends each of tmpls joined with name (strings.Join(parts, name)),
// all made in one string: one allocation a port rather than one a command.
func appendPortCommands(dst []string, tmpls [][]string, name string) []string {
	n := 0
	for _, parts := range tmpls {
		for _, p := range parts {
			n += len(p)
		}
		n += (len(parts) - 1) * len(name)
	}
	var b strings.Builder
	b.Grow(n)
	for _, parts := range tmpls {
		for k, p := range parts {
			if k > 0 {
				b.WriteString(name)
			}
			b.WriteString(p)
		}
	}
	all, off := b.String(), 0
	for _, parts := range tmpls {
		l := (len(parts) - 1) * len(name)
		for _, p := range parts {
			l += len(p)
		}
		dst = append(dst, all[off:off+l])
		off += l
	}
	return dst
}

// portCommandTmpls are the commands every port is read with (the RoCE status only in RoCE
// mode), expanded for a port all at once: one allocation rather than one a command.
var portCommandTmpls = [...]string{TmplLink, TmplRoCEStatus, TmplLinkPause, TmplPFCWatchdog, tmplCountersJSON, tmplLinkStatsJSON}

// Indexes in portCommandTmpls.
const (
	pcLink = iota
	pcRoCEStatus
	pcLinkPause
	pcWatchdog
	pcCountersJSON
	pcLinkStatsJSON
)

var portCommandsJoined = strings.Join(portCommandTmpls[:], "\n")

// expandPortCommands is portCommandTmpls for the port name (each template has one {if}, and
// a valid name no brace): substrings of one expansion.
func expandPortCommands(name string) [len(portCommandTmpls)]string {
	all := strings.Replace(portCommandsJoined, "{if}", name, -1)
	var out [len(portCommandTmpls)]string
	off := 0
	for k, t := range portCommandTmpls {
		n := len(t) - len("{if}") + len(name)
		out[k] = all[off : off+n]
		off += n + 1
	}
	return out
}

// firstPortCommands are what collectPort will send for name, found by a dry run in which
// every command fails unsent: each JSON-first read then shows its text fallback too (the dry
// reader never stops asking JSON), which is left out while the switch is still believed to
// take `-o json`. They go in one batch, so
// even the first port costs a session or two rather than one per command.
func firstPortCommands(ctx context.Context, nr *nvReader, name string, roce *RoCE, roceEv topology.Evidence) []string {
	dry := &switchcollect.Sent{Next: notSent{}}
	dnr := &nvReader{r: dry, dry: true}
	noJSON := nr.noJSON.Load()
	dnr.noJSON.Store(noJSON)
	_ = collectPort(ctx, dnr, name, roce, roceEv)
	cmds := dry.Commands()
	var out []string
	for _, c := range cmds {
		if noJSON || !slices.Contains(cmds, jsonCmd(c)) {
			out = append(out, c)
		}
	}
	return out
}

// notSent answers every command of a dry run with a failure, sending nothing.
type notSent struct{}

func (notSent) Run(context.Context, string) (collectors.Output, error) {
	return collectors.Output{ExitCode: 1, Stderr: "dry run: not sent"}, nil
}

// portNames is what to report on: the inventory's interfaces when it names some, otherwise
// every front-panel (swp) interface NVUE lists.
func portNames(ifs []Interface, want []string) []string {
	var out []string
	if len(want) > 0 {
		out = slices.Clone(want)
	} else {
		for _, i := range ifs {
			if i.Type == "swp" {
				out = append(out, i.Name)
			}
		}
	}
	slices.SortFunc(out, portOrder.Compare)
	return slices.Compact(out)
}

func lldpFact(ifs []Interface, ev topology.Evidence) topology.Fact[[]topology.LLDPNeighbor] {
	if ev.Error != "" {
		return topology.Unknown[[]topology.LLDPNeighbor](ev)
	}
	ns := make([]topology.LLDPNeighbor, 0, len(ifs))
	lines := make([]string, 0, len(ifs))
	for _, i := range ifs {
		if i.RemoteHost == "" || i.NameTruncated() {
			// No neighbour, or one NVUE did not print in full: not a neighbour, but a
			// truncated row stays in the evidence so the gap is visible.
			if len(i.Truncated) > 0 {
				lines = append(lines, i.Line)
			}
			continue
		}
		ns = append(ns, topology.LLDPNeighbor{LocalPort: i.Name, SystemName: i.RemoteHost, PortID: i.RemotePort})
		lines = append(lines, i.Line)
	}
	ev.Excerpt = strings.Join(lines, "\n")
	if len(lines) == 0 {
		ev.Excerpt = "no LLDP neighbours"
	}
	return topology.Known(ns, ev)
}

// collectPort reads one port. The commands depend on the RoCE regime; the MTU, link pause,
// watchdog and counters are read the same way in both.
func collectPort(ctx context.Context, nr *nvReader, name string, roce *RoCE, roceEv topology.Evidence) *topology.SwitchPort {
	return collectValidPort(ctx, nr, name, topology.ValidName(name), roce, roceEv)
}

// collectValidPort is collectPort of a name whose topology.ValidName is nameErr.
func collectValidPort(ctx context.Context, nr *nvReader, name string, nameErr error, roce *RoCE, roceEv topology.Evidence) *topology.SwitchPort {
	r := nr.r
	p := &topology.SwitchPort{Name: name}
	if texttable.Truncated(name) {
		unknownAll(p, topology.Evidence{Command: CmdInterfaceLLDP,
			Error: fmt.Sprintf("NVUE truncated the interface name to %q: the port cannot be queried by name", name)})
		return p
	}
	if err := nameErr; err != nil {
		unknownAll(p, topology.Evidence{Error: err.Error()})
		return p
	}
	// What collectors.Expand makes of the templates' one {if} and the name ValidName passed,
	// without its map and its check of the name again (a tenth of collectPort's CPU).
	cmd := func(tmpl string) string { return strings.Replace(tmpl, "{if}", name, 1) }
	pc := expandPortCommands(name)

	p.Speed, p.MTU = linkFacts(ctx, r, pc[pcLink], nr.memo)

	switch {
	case roce == nil:
		p.Trust = topology.Unknown[string](roceEv)
		p.DSCPToTC = topology.Unknown[map[int]int](roceEv)
		p.TCToQueue = topology.Unknown[map[int]int](roceEv)
		p.PFC = topology.Unknown[topology.SwitchPFC](roceEv)
		p.ECN = topology.Unknown[map[int]bool](roceEv)
		p.Scheduler = topology.Unknown[map[int]string](roceEv)
		p.Buffer = topology.Unknown[topology.Buffer](roceEv)
	case roce.Enabled:
		rocePort(ctx, r, p, pc[pcRoCEStatus], roce, nr.memo.statusMemo())
	default:
		genericPort(ctx, r, p, cmd, nr.memo)
	}

	p.Pause = readFact(ctx, r, pc[pcLinkPause], nr.memo.parseLinkPause)
	wdCmd := pc[pcWatchdog]
	p.PFCWatchdog = readFact(ctx, r, wdCmd, func(out string) (map[int]bool, string, error) {
		on, ex, err := nr.memo.parsePFCWatchdog(out)
		m := make(map[int]bool, 8)
		for prio := 0; prio < 8; prio++ {
			m[prio] = on
		}
		return m, ex, err
	})
	p.WatchdogTimers = topology.Unsupported(topology.WatchdogTimers{}, WatchdogTimersUnread, topology.Evidence{Command: wdCmd})
	p.Counters = counterFact(ctx, nr, name, pc[pcCountersJSON])
	addLinkStats(ctx, nr, p, name, pc[pcLinkStatsJSON])
	p.DCBX = dcbxFact(roce, roceEv)
	return p
}

func dcbxFact(roce *RoCE, roceEv topology.Evidence) topology.Fact[topology.DCBX] {
	d := topology.DCBX{Mode: "static", Detail: "configured locally; DCBX TLVs are only transmitted"}
	if roce != nil && roce.Enabled {
		d.Detail = "configured locally; RoCE is enabled, so IEEE DCBX PFC/ETS TLVs are transmitted on every port"
	}
	if roceEv.Error != "" {
		d.Detail = "configured locally; whether TLVs are transmitted is unknown (" + roceEv.Error + ")"
	}
	return topology.Unsupported(d, DCBXUnsupported, topology.Evidence{Command: CmdRoCE})
}

// rocePort reads the RoCE regime of one port: the port's status over the switch-wide maps.
func rocePort(ctx context.Context, r collectors.Runner, p *topology.SwitchPort, cmd string, global *RoCE, status *statusMemo) {
	out, ev := evidence.Run(ctx, r, cmd)
	var ps parsedStatus
	if ev.Error == "" {
		if ps = status.parse(out, global); ps.err != nil {
			ev.Error = commandError(cmd, ps.err)
		}
	}
	st := ps.st
	if ev.Error != "" {
		p.Trust = topology.Unknown[string](ev)
		p.DSCPToTC = topology.Unknown[map[int]int](ev)
		p.TCToQueue = topology.Unknown[map[int]int](ev)
		p.PFC = topology.Unknown[topology.SwitchPFC](ev)
		p.ECN = topology.Unknown[map[int]bool](ev)
		p.Scheduler = topology.Unknown[map[int]string](ev)
		p.Buffer = topology.Unknown[topology.Buffer](ev)
		return
	}
	with := func(excerpt string) topology.Evidence { return topology.Evidence{Command: cmd, Excerpt: excerpt} }

	if st.Trust != "" {
		p.Trust = topology.Known(st.Trust, with(st.Excerpts[ExTrust]))
	} else if global.Trust != "" {
		p.Trust = topology.Known(global.Trust, topology.Evidence{Command: CmdRoCE, Excerpt: global.Excerpts[ExTrust]})
	} else {
		p.Trust = topology.Unknown[string](topology.Evidence{Command: cmd, Error: cmd + ": no trust-mode row, nor in " + CmdRoCE})
	}

	// the maps and excerpts the memo made for this output: a port clones the maps
	p.DSCPToTC = topology.Known(maps.Clone(ps.dscp), with(ps.dscpEx))
	p.TCToQueue = topology.Known(maps.Clone(ps.sptc), with(ps.sptcEx))
	p.Scheduler = topology.Known(maps.Clone(ps.sched), with(ps.schedEx))

	pfc := topology.SwitchPFC{RX: []int{}, TX: []int{}}
	if st.PFCRX {
		pfc.RX = slices.Clone(st.PFCPriorities)
	}
	if st.PFCTX {
		pfc.TX = slices.Clone(st.PFCPriorities)
	}
	p.PFC = topology.Known(pfc, with(ps.pfcEx))
	p.ECN = topology.Known(maps.Clone(ps.ecn), with(st.Excerpts[ExECN]))

	p.Buffer = roceBuffer(st, global, cmd)
}

// roceBuffer: in a lossless mode the lossless priority groups are the switch priorities of
// the roce-reserved-ingress pool, or, in the single shared ingress pool mode, the PFC
// priorities; lossy modes have none.
func roceBuffer(st, global *RoCE, cmd string) topology.Fact[topology.Buffer] {
	pools, src := st.Pools, cmd
	if len(pools) == 0 {
		pools, src = global.Pools, CmdRoCE
	}
	ev := topology.Evidence{Command: src}
	if !strings.HasPrefix(st.Mode, "lossless") {
		ev.Excerpt = st.Excerpts[ExMode] + " (a lossy RoCE mode has no lossless pool)"
		return topology.Known(topology.Buffer{LosslessPGs: []int{}}, ev)
	}
	for _, pool := range pools {
		if pool.Name == "roce-reserved-ingress" {
			ev.Excerpt = poolLine(st, global, pool.Name)
			return topology.Known(topology.Buffer{LosslessPGs: slices.Clone(pool.SwitchPriorities), Profile: pool.Name}, ev)
		}
	}
	if st.Mode == "lossless-single-ipool" {
		ev.Command = cmd
		ev.Excerpt = joinLines(st.Excerpts[ExMode], st.Excerpts[ExPFC])
		return topology.Known(topology.Buffer{LosslessPGs: slices.Clone(st.PFCPriorities), Profile: "lossless-single-ipool (shared ingress pool)"}, ev)
	}
	ev.Error = fmt.Sprintf("%s: mode %s but no roce-reserved-ingress pool is listed", src, st.Mode)
	return topology.Unknown[topology.Buffer](ev)
}

func poolLine(st, global *RoCE, name string) string {
	for _, ex := range []string{st.Excerpts[ExPools], global.Excerpts[ExPools]} {
		for rest, more := ex, true; more; {
			var l string
			l, rest, more = strings.Cut(rest, "\n")
			if strings.Contains(l, name) {
				return strings.TrimSpace(l)
			}
		}
	}
	return name
}

// genericPort reads the generic QoS profiles of one port (RoCE disabled).
func genericPort(ctx context.Context, r collectors.Runner, p *topology.SwitchPort, cmd func(string) string, memo *portMemo) {
	mapCmd := cmd(TmplMapping)
	out, ev := evidence.Run(ctx, r, mapCmd)
	var m Mapping
	if ev.Error == "" {
		var err error
		if m, err = memo.parseMapping(out); err != nil {
			ev.Error = commandError(mapCmd, err)
		}
	}
	if ev.Error != "" {
		p.Trust = topology.Unknown[string](ev)
		p.DSCPToTC = topology.Unknown[map[int]int](ev)
	} else {
		ev.Excerpt = m.Excerpt
		p.Trust = topology.Known(m.Trust, ev)
		p.DSCPToTC = topology.Known(m.DSCPToSP, ev)
	}
	p.TCToQueue = readFact(ctx, r, cmd(TmplEgressQueueMapping), memo.parseEgressQueueMapping)
	p.Scheduler = readFact(ctx, r, cmd(TmplEgressScheduler), memo.parseEgressScheduler)
	p.ECN = readFact(ctx, r, cmd(TmplCongestion), func(out string) (map[int]bool, string, error) {
		m, ex, err := memo.parseCongestionControl(out)
		full := map[int]bool{}
		for tc := 0; tc < 8; tc++ {
			full[tc] = false
		}
		for tc, on := range m {
			full[tc] = on
		}
		return full, ex, err
	})
	p.PFC = readFact(ctx, r, cmd(TmplPFC), func(out string) (topology.SwitchPFC, string, error) {
		pfc, err := memo.parsePFC(out)
		if err != nil {
			return topology.SwitchPFC{}, "", err
		}
		s := topology.SwitchPFC{RX: []int{}, TX: []int{}}
		if (pfc.RX || pfc.TX) && !pfc.Listed {
			return s, "", fmt.Errorf("%s: PFC is enabled (rx %v, tx %v) but the output does not list its switch priorities", cmd(TmplPFC), pfc.RX, pfc.TX)
		}
		if pfc.RX {
			s.RX = slices.Clone(pfc.SwitchPriorities)
		}
		if pfc.TX {
			s.TX = slices.Clone(pfc.SwitchPriorities)
		}
		return s, pfc.Excerpt, nil
	})
	if p.PFC.Usable() && len(p.PFC.Value.RX) == 0 && len(p.PFC.Value.TX) == 0 {
		p.Buffer = topology.Known(topology.Buffer{LosslessPGs: []int{}},
			topology.Evidence{Command: p.PFC.Source.Command, Excerpt: p.PFC.Source.Excerpt + "\n(PFC off: no lossless priority group)"})
	} else {
		p.Buffer = topology.Unknown[topology.Buffer](topology.Evidence{Command: CmdRoCE,
			Error: CmdRoCE + ": RoCE is disabled, and lossless buffer pools are only reported in RoCE mode"})
	}
}

// linkFacts reads the speed and the MTU from one `nv show interface <if> link`.
func linkFacts(ctx context.Context, r collectors.Runner, cmd string, memo *portMemo) (topology.Fact[float64], topology.Fact[topology.MTU]) {
	out, ev := evidence.Run(ctx, r, cmd)
	if ev.Error != "" {
		return topology.Unknown[float64](ev), topology.Unknown[topology.MTU](ev)
	}
	l, err := memo.parseLink(out)
	if err != nil {
		ev.Error = commandError(cmd, err)
		return topology.Unknown[float64](ev), topology.Unknown[topology.MTU](ev)
	}
	mtuEv := ev
	mtuEv.Excerpt = l.Line
	if l.FromApplied {
		mtuEv.Excerpt += " (no operational value: applied shown)"
	}
	mtu := topology.Known(topology.MTU{Configured: l.MTU, Kind: "frame", Normalized: l.MTU}, mtuEv)
	speedEv := ev
	speedEv.Excerpt = l.SpeedLine
	if l.SpeedErr != nil {
		speedEv.Error = cmd + ": " + l.SpeedErr.Error()
		return topology.Unknown[float64](speedEv), mtu
	}
	return topology.Known(l.Speed, speedEv), mtu
}

// counterFact reads the port's QoS counters, exact from the JSON or humanised from the text.
func counterFact(ctx context.Context, nr *nvReader, port, jsonCmd string) topology.Fact[map[string]int64] {
	m, ev := readPort(ctx, nr, TmplCounters, jsonCmd, port, ParseCountersQoSJSON, ParseCountersQoS)
	if ev.Error != "" {
		ev.Error = commandError(ev.Command, errors.New(ev.Error))
		return topology.Unknown[map[string]int64](ev)
	}
	ev.Excerpt = joinLines(countNote(len(m), qosCountNotes, " counters"), ev.Excerpt)
	return topology.Known(m, ev)
}

// addLinkStats adds the port's traffic counters to its QoS counters; when only one of the
// two commands answered, the counters are what that one gave.
func addLinkStats(ctx context.Context, nr *nvReader, p *topology.SwitchPort, port, jsonCmd string) {
	lc, ev := readPort(ctx, nr, TmplLinkStats, jsonCmd, port, linkCountsJSON, linkCountsText)
	switch {
	case ev.Error != "" && p.Counters.Usable():
		p.Counters.Source.Excerpt = joinLines(p.Counters.Source.Excerpt, "traffic counters unreadable: "+commandError(ev.Command, errors.New(ev.Error)))
	case ev.Error != "":
	case p.Counters.Usable():
		lc.addTo(p.Counters.Value)
		p.Counters.Source.Command += " + " + ev.Command
		p.Counters.Source.Excerpt = joinLines(p.Counters.Source.Excerpt, countNote(lc.len(), trafficCountNotes, " traffic counters"))
	default:
		m := lc.counterMap()
		ev.Excerpt = joinLines(fmt.Sprintf("%d traffic counters (QoS counters unreadable: %s)", len(m), p.Counters.Source.Error), ev.Excerpt)
		p.Counters = topology.Known(m, ev)
	}
}

// qosCountNotes and trafficCountNotes are "<n> counters" and "<n> traffic counters" for
// the usual numbers, made once rather than formatted for every port.
var qosCountNotes, trafficCountNotes = countNotes(" counters"), countNotes(" traffic counters")

func countNotes(what string) []string {
	out := make([]string, 129)
	for n := range out {
		out[n] = strconv.Itoa(n) + what
	}
	return out
}

// countNote is "<n><what>", from notes when it holds n.
func countNote(n int, notes []string, what string) string {
	if n >= 0 && n < len(notes) {
		return notes[n]
	}
	return strconv.Itoa(n) + what
}

// readFact runs one command and parses its output into a fact.
func readFact[T any](ctx context.Context, r collectors.Runner, cmd string, parse func(string) (T, string, error)) topology.Fact[T] {
	out, ev := evidence.Run(ctx, r, cmd)
	if ev.Error != "" {
		return topology.Unknown[T](ev)
	}
	v, ex, err := parse(out)
	if err != nil {
		ev.Error = commandError(cmd, err)
		return topology.Unknown[T](ev)
	}
	ev.Excerpt = ex
	return topology.Known(v, ev)
}

// commandError makes a parse error name the command as sent: parsers name their template
// ("nv show interface {if} link: ..."), which becomes "nv show interface swp1 link: ...".
func commandError(cmd string, err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && strings.HasPrefix(msg, "nv show") {
		if strings.Contains(msg[:i], "{if}") {
			return cmd + msg[i:]
		}
		return msg
	}
	return cmd + ": " + msg
}

func unknownAll(p *topology.SwitchPort, ev topology.Evidence) {
	p.Speed = topology.Unknown[float64](ev)
	p.MTU = topology.Unknown[topology.MTU](ev)
	p.Trust = topology.Unknown[string](ev)
	p.DSCPToTC = topology.Unknown[map[int]int](ev)
	p.TCToQueue = topology.Unknown[map[int]int](ev)
	p.PFC = topology.Unknown[topology.SwitchPFC](ev)
	p.PFCWatchdog = topology.Unknown[map[int]bool](ev)
	p.WatchdogTimers = topology.Unknown[topology.WatchdogTimers](ev)
	p.Pause = topology.Unknown[topology.Pause](ev)
	p.ECN = topology.Unknown[map[int]bool](ev)
	p.Scheduler = topology.Unknown[map[int]string](ev)
	p.DCBX = topology.Unknown[topology.DCBX](ev)
	p.Buffer = topology.Unknown[topology.Buffer](ev)
	p.Counters = topology.Unknown[map[string]int64](ev)
}

func orNone(s string) string {
	if s == "" {
		return "the switch lists no swp interface"
	}
	return s
}
