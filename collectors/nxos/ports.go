package nxos

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
	"github.com/roceaudit/roceaudit/topology"
)

// buildPort turns the parsed outputs into one port's facts.
func buildPort(name string, s *sources) *topology.SwitchPort {
	p := &topology.SwitchPort{Name: name}
	iface, ifOK := s.ifaces[name]
	switch {
	case s.ifacesErr != nil:
		e := evErr(CmdInterface, s.ifacesErr)
		p.Speed = topology.Unknown[float64](e)
		p.MTU = topology.Unknown[topology.MTU](e)
		p.Pause = topology.Unknown[topology.Pause](e)
		p.Counters = topology.Unknown[map[string]int64](e)
	case !ifOK:
		e := evErr(CmdInterface, fmt.Errorf("%s is not in the output", name))
		p.Speed = topology.Unknown[float64](e)
		p.MTU = topology.Unknown[topology.MTU](e)
		p.Pause = topology.Unknown[topology.Pause](e)
		p.Counters = topology.Unknown[map[string]int64](e)
	default:
		if gbps, ex, err := iface.Speed(); err != nil {
			p.Speed = topology.Unknown[float64](evErr(CmdInterface, err))
		} else {
			p.Speed = topology.Known(gbps, ev(CmdInterface, ex))
		}
		p.MTU = topology.Known(topology.MTU{Configured: iface.MTU, Kind: "frame", Normalized: iface.MTU},
			ev(CmdInterface, name+` "eth_mtu": `+strconv.Itoa(iface.MTU)))
		pauseEv := make([]byte, 0, len(name)+64)
		pauseEv = append(pauseEv, name...)
		pauseEv = append(pauseEv, ` "eth_in_flowctrl": `...)
		pauseEv = strconv.AppendQuote(pauseEv, iface.InFlowCtrl)
		pauseEv = append(pauseEv, `, "eth_out_flowctrl": `...)
		pauseEv = strconv.AppendQuote(pauseEv, iface.OutFlowCtrl)
		p.Pause = topology.Known(topology.Pause{RX: iface.InFlowCtrl == "on", TX: iface.OutFlowCtrl == "on"},
			ev(CmdInterface, string(pauseEv)))
		p.Counters = portCounters(name, &iface, s)
	}
	if s.cfgErr != nil {
		switchcollect.UnknownConfig(p, evErr(CmdQoSConfig, s.cfgErr))
		return p
	}
	configFacts(p, s.cfg, iface.Bundle, &s.memo)
	operFacts(p, s)
	return p
}

// portCounters are the port's pause and traffic counters and its egress queue counters.
// Without the latter the former still stand, and the excerpt says why the queues are
// missing. The port's own QueueCounters map (s.queues is Collect's alone, one map a port) is
// the counters' map: copying its ~48 entries into a fresh map was a third of buildPort.
func portCounters(name string, iface *Interface, s *sources) topology.Fact[map[string]int64] {
	q, ok := s.queues[name]
	nq := len(q)
	c := map[string]int64(q)
	if s.queuesErr != nil || !ok || q == nil {
		c = make(map[string]int64, 2+len(trafficCounters))
	}
	// The queue counters are named queue<g>_...: none is a pause or traffic counter.
	if iface.HasPauseCounter {
		c["rx_pause"], c["tx_pause"] = iface.InPause, iface.OutPause
	}
	ex := make([]byte, 0, 2*len(name)+160)
	ex = append(ex, name...)
	ex = append(ex, " eth_inpause "...)
	ex = strconv.AppendInt(ex, iface.InPause, 10)
	ex = append(ex, " eth_outpause "...)
	ex = strconv.AppendInt(ex, iface.OutPause, 10)
	for _, k := range trafficCounters {
		if v, ok := iface.Traffic[k.name]; ok {
			c[k.name] = v
			ex = append(ex, ' ')
			ex = append(ex, k.nxos...)
			ex = append(ex, ' ')
			ex = strconv.AppendInt(ex, v, 10)
		}
	}
	e := topology.Evidence{Command: CmdInterface}
	switch {
	case s.queuesErr != nil:
		ex = append(ex, "\n(no queue counters: "...)
		ex = append(ex, s.queuesErr.Error()...)
		ex = append(ex, ')')
	case !ok:
		ex = append(ex, "\n(no queue counters: "...)
		ex = append(ex, name...)
		ex = append(ex, " is not in "...)
		ex = append(ex, s.queuesCmd...)
		ex = append(ex, ')')
	default:
		if s.memo.countersCmd == "" {
			s.memo.countersCmd = switchcollect.Join(" + ", CmdInterface, s.queuesCmd)
		}
		e.Command = s.memo.countersCmd
		ex = append(ex, '\n')
		ex = strconv.AppendInt(ex, int64(nq), 10)
		ex = append(ex, " egress queue counters"...)
	}
	e.Excerpt = string(ex)
	return topology.Known(c, e)
}

// operFacts decides a `mode auto` port's PFC from `show interface priority-flow-control`:
// On with a VL bitmap is PFC negotiated on those CoS values, Off is PFC not running. Without
// that output the port stays undecided (PFC.Oper "").
func operFacts(p *topology.SwitchPort, s *sources) {
	if !p.PFC.Usable() || p.PFC.Value.Mode != "auto" {
		return
	}
	row, ok := s.pfc[p.Name]
	if s.pfcErr != nil || !ok {
		return
	}
	pfc := p.PFC.Value
	src := p.PFC.Source
	src.Command = switchcollect.Join(" + ", src.Command, CmdPFCOper)
	src.Excerpt = switchcollect.Join("\n", src.Excerpt, row.Line)
	pfc.Oper = "off"
	pfc.RX, pfc.TX = []int{}, []int{}
	if row.On {
		pfc.Oper = "on"
		cos := row.CoS
		if cos == nil { // no bitmap printed: the no-drop CoS values of the network-qos policy
			cos = p.PFC.Value.RX
		}
		pfc.RX, pfc.TX = append([]int{}, cos...), append([]int{}, cos...)
	}
	p.PFC = topology.Known(pfc, src)
	detail := "priority-flow-control mode auto: DCBX negotiation left PFC off (" + row.Line + ")"
	if row.On {
		detail = "priority-flow-control mode auto: PFC negotiated by DCBX on " + fmt.Sprint(pfc.RX) + " (" + row.Line + ")"
	}
	p.DCBX = topology.Known(topology.DCBX{Mode: "dcbx", Detail: detail}, src)
}

// portMemo is what configFacts reads from the configuration alone, resolved once a Collect
// rather than once a port (a leaf's 248 ports share a policy or two): its maps are cloned
// into each port's facts, which own them.
type portMemo struct {
	classified map[string]*classified // by the qos input policy in force
	queued     map[string]*queued     // by the queuing output policy in force
	lossless   *lossless
	// tcq is qos-group g -> queue g; watchdog[wd] every queue -> wd.
	tcq         map[int]int
	watchdog    [2]map[int]bool
	countersCmd string // CmdInterface + CmdQueuing*, see portCounters
	scratch     []byte // excerpt's
}

type classified struct {
	cl        Classification
	err       error
	sysPolicy string // "\n" + system qos lines + "\n" + the policy's lines, after the port's
}

type queued struct {
	q             Queuing
	attached      bool
	err           error
	ev, schedEv   string
	schedUnknownE string
}

type lossless struct {
	nd                     NoDrop
	err                    error
	nqDefault, nqEv, bufEv string
}

func (m *portMemo) classify(c *QoSConfig, iq *InterfaceQoS) *classified {
	name := c.SystemQoSInput
	if iq != nil && iq.QoSInput != "" {
		name = iq.QoSInput
	}
	return remembered(&m.classified, name, func() *classified {
		r := &classified{}
		r.cl, r.err = c.Classify(iq)
		if r.err == nil && r.cl.Policy != "" {
			r.sysPolicy = "\n" + strings.Join(c.SystemLines, "\n") + "\n" + strings.Join(r.cl.Lines, "\n")
		}
		return r
	})
}

func (m *portMemo) queues(c *QoSConfig, iq *InterfaceQoS) *queued {
	name := c.SystemQueuingOutput
	if iq != nil && iq.QueuingOutput != "" {
		name = iq.QueuingOutput
	}
	return remembered(&m.queued, name, func() *queued {
		r := &queued{}
		r.q, r.attached, r.err = c.Queues(iq)
		if r.err == nil && r.attached {
			r.ev = switchcollect.Excerpt(strings.Join(r.q.Lines, "\n"), 800)
			r.schedEv = r.ev + "\n(queues without priority are DWRR)"
		}
		return r
	})
}

// remembered is (*m)[key], made by made on its first use and kept.
func remembered[V any](m *map[string]*V, key string, made func() *V) *V {
	if r, ok := (*m)[key]; ok {
		return r
	}
	if *m == nil {
		*m = map[string]*V{}
	}
	r := made()
	(*m)[key] = r
	return r
}

func (m *portMemo) noDrop(c *QoSConfig) *lossless {
	if m.lossless == nil {
		r := &lossless{}
		r.nd, r.err = c.Lossless()
		r.nqDefault = "NX-OS default network-qos policy, which pauses no priority (no service-policy type network-qos under system qos)"
		if r.err == nil && r.nd.Policy != "" {
			r.nqEv = switchcollect.Excerpt(strings.Join(r.nd.Lines, "\n"), 600)
			r.nqDefault, r.bufEv = "", "no-drop qos-groups of the network-qos policy\n"+r.nqEv
		}
		m.lossless = r
	}
	return m.lossless
}

// excerpt is switchcollect.Excerpt(a+b, max) without allocating a+b.
func (m *portMemo) excerpt(a, b string, max int) string {
	m.scratch = append(append(m.scratch[:0], a...), b...)
	t := bytes.TrimSpace(m.scratch)
	if len(t) <= max {
		return string(t)
	}
	var out strings.Builder
	out.Grow(max + len("…"))
	out.Write(t[:max])
	out.WriteString("…")
	return out.String()
}

// configFacts fills the facts read from `show running-config ipqos`; bundle is the port's
// eth_bundle (see QoSConfig.ForPort).
func configFacts(p *topology.SwitchPort, c *QoSConfig, bundle string, m *portMemo) {
	iq := c.ForPort(p.Name, bundle)
	ifBlock := "interface " + p.Name + ": no ipqos configuration"
	if iq != nil && len(iq.Lines) > 0 {
		ifBlock = strings.Join(iq.Lines, "\n")
	}

	if cls := m.classify(c, iq); cls.err != nil {
		e := evErr(CmdQoSConfig, cls.err)
		p.Trust = topology.Unknown[string](e)
		p.DSCPToTC = topology.Unknown[map[int]int](e)
	} else {
		classDefault, where, dscpEv := "", "", ""
		if cls.cl.Policy != "" {
			where = m.excerpt(ifBlock, cls.sysPolicy, 800)
			dscpEv = "DSCP -> qos-group: " + where
		} else {
			classDefault = "NX-OS default: every packet in qos-group 0 (no service-policy type qos input on " + p.Name + " or under system qos)"
		}
		p.Trust = topology.InferredIf(cls.cl.Trust, classDefault, ev(CmdQoSConfig, where))
		p.DSCPToTC = topology.InferredIf(maps.Clone(cls.cl.DSCPToQG), classDefault, ev(CmdQoSConfig, dscpEv))
	}
	if m.tcq == nil {
		m.tcq = map[int]int{}
		for g := 0; g < 8; g++ {
			m.tcq[g] = g
		}
	}
	p.TCToQueue = topology.Known(maps.Clone(m.tcq), ev(CmdQoSConfig, "qos-group N is egress queue N (c-out-8q-qN)"))

	mode := PFCMode(iq)
	modeDefault, modeEv := "", ifBlock
	if iq == nil || iq.PFCMode == "" {
		modeDefault, modeEv = "NX-OS default priority-flow-control mode auto, DCBX-negotiated (no `priority-flow-control mode` under interface "+p.Name+")", ""
	}
	if ll := m.noDrop(c); ll.err != nil {
		e := evErr(CmdQoSConfig, ll.err)
		p.PFC = topology.Unknown[topology.SwitchPFC](e)
		p.Buffer = topology.Unknown[topology.Buffer](e)
	} else {
		nd := &ll.nd
		prios := []int{}
		if mode != "off" {
			prios = append(prios, nd.PFCCoS...)
		}
		// PFC rests on both the mode and the network-qos policy: either default makes it inferred.
		p.PFC = topology.InferredIf(topology.SwitchPFC{RX: prios, TX: append([]int{}, prios...), Mode: mode},
			switchcollect.Join("; ", ll.nqDefault, modeDefault), ev(CmdQoSConfig, switchcollect.Join("\n", modeEv, ll.nqEv)))
		p.Buffer = topology.InferredIf(topology.Buffer{LosslessPGs: slices.Clone(nd.QoSGroups), Profile: nd.Policy}, ll.nqDefault, ev(CmdQoSConfig, ll.bufEv))
		// `pause pfc-cos N` in class c-8q-nqG makes priority N qos-group G's; only where G != N.
		for cos, g := range nd.CoSGroup {
			if g != cos {
				if p.PriorityClass == nil {
					p.PriorityClass = map[int]int{}
				}
				p.PriorityClass[cos] = g
			}
		}
	}

	wd, wdDefault, wdEv := false, "", ""
	switch {
	case iq != nil && iq.Watchdog != nil:
		wd, wdEv = *iq.Watchdog, ifBlock
	case c.Watchdog != nil:
		wd, wdEv = *c.Watchdog, c.WatchdogLine+" (global)"
	default:
		wdDefault = "NX-OS default watchdog off (no priority-flow-control watch-dog-interval, globally or on " + p.Name + ")"
	}
	wdi := 0
	if wd {
		wdi = 1
	}
	if m.watchdog[wdi] == nil {
		m.watchdog[wdi] = map[int]bool{}
		for q := 0; q < 8; q++ {
			m.watchdog[wdi][q] = wd
		}
	}
	p.PFCWatchdog = topology.InferredIf(maps.Clone(m.watchdog[wdi]), wdDefault, ev(CmdQoSConfig, switchcollect.Join("; ", wdEv, "the watchdog covers every no-drop queue of the port")))
	p.WatchdogTimers = topology.Unsupported(topology.WatchdogTimers{}, WatchdogTimersUnread, ev(CmdQoSConfig, ""))

	switch qd := m.queues(c, iq); {
	case qd.err != nil:
		e := evErr(CmdQoSConfig, qd.err)
		p.ECN = topology.Unknown[map[int]bool](e)
		p.Scheduler = topology.Unknown[map[int]string](e)
	case !qd.attached:
		p.ECN = topology.Inferred(maps.Clone(qd.q.ECN), "NX-OS default queuing policy, which marks no ECN (no service-policy type queuing output on "+p.Name+" or under system qos)",
			ev(CmdQoSConfig, ""))
		p.Scheduler = topology.Unknown[map[int]string](topology.Evidence{Command: CmdQoSConfig,
			Error: "no service-policy type queuing output on " + p.Name + " or under system qos; the default policy's scheduling is not in the running configuration"})
	default:
		p.ECN = topology.Known(maps.Clone(qd.q.ECN), ev(CmdQoSConfig, qd.ev))
		p.Scheduler = topology.Known(maps.Clone(qd.q.Scheduler), ev(CmdQoSConfig, qd.schedEv))
	}

	if mode == "auto" {
		p.DCBX = topology.InferredIf(topology.DCBX{Mode: "dcbx", Detail: "priority-flow-control mode auto: PFC follows DCBX negotiation"}, modeDefault, ev(CmdQoSConfig, modeEv))
	} else {
		p.DCBX = topology.InferredIf(topology.DCBX{Mode: "static", Detail: "priority-flow-control mode " + mode}, modeDefault, ev(CmdQoSConfig, modeEv))
	}
}
