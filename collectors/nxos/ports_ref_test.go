package nxos

// The per-port fact building before portMemo (every policy resolved again for every port),
// kept as the reference the new one must agree with.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
	"github.com/roceaudit/roceaudit/topology"
)

// buildPort turns the parsed outputs into one port's facts.
func buildPortRef(name string, s *sources) *topology.SwitchPort {
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
		if gbps, ex, err := iface.speedRef(); err != nil {
			p.Speed = topology.Unknown[float64](evErr(CmdInterface, err))
		} else {
			p.Speed = topology.Known(gbps, ev(CmdInterface, ex))
		}
		p.MTU = topology.Known(topology.MTU{Configured: iface.MTU, Kind: "frame", Normalized: iface.MTU},
			ev(CmdInterface, fmt.Sprintf("%s \"eth_mtu\": %d", name, iface.MTU)))
		p.Pause = topology.Known(topology.Pause{RX: iface.InFlowCtrl == "on", TX: iface.OutFlowCtrl == "on"},
			ev(CmdInterface, fmt.Sprintf("%s \"eth_in_flowctrl\": %q, \"eth_out_flowctrl\": %q", name, iface.InFlowCtrl, iface.OutFlowCtrl)))
		c := map[string]int64{}
		if iface.HasPauseCounter {
			c["rx_pause"], c["tx_pause"] = iface.InPause, iface.OutPause
		}
		ex := fmt.Sprintf("%s eth_inpause %d eth_outpause %d", name, iface.InPause, iface.OutPause)
		for _, k := range trafficCounters {
			if v, ok := iface.Traffic[k.name]; ok {
				c[k.name] = v
				ex += fmt.Sprintf(" %s %d", k.nxos, v)
			}
		}
		p.Counters = queueCountersRef(name, c, ev(CmdInterface, ex), s)
	}
	if s.cfgErr != nil {
		switchcollect.UnknownConfig(p, evErr(CmdQoSConfig, s.cfgErr))
		return p
	}
	configFactsRef(p, s.cfg, iface.Bundle)
	operFactsRef(p, s)
	return p
}

// operFacts decides a `mode auto` port's PFC from `show interface priority-flow-control`:
// On with a VL bitmap is PFC negotiated on those CoS values, Off is PFC not running. Without
// that output the port stays undecided (PFC.Oper "").
func operFactsRef(p *topology.SwitchPort, s *sources) {
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

// configFacts fills the facts read from `show running-config ipqos`; bundle is the port's
// eth_bundle (see QoSConfig.ForPort).
func configFactsRef(p *topology.SwitchPort, c *QoSConfig, bundle string) {
	iq := c.ForPort(p.Name, bundle)
	var ifLines []string
	if iq != nil {
		ifLines = iq.Lines
	}
	ifBlock := "interface " + p.Name + ": no ipqos configuration"
	if len(ifLines) > 0 {
		ifBlock = strings.Join(ifLines, "\n")
	}

	cl, err := c.Classify(iq)
	if err != nil {
		e := evErr(CmdQoSConfig, err)
		p.Trust = topology.Unknown[string](e)
		p.DSCPToTC = topology.Unknown[map[int]int](e)
	} else {
		classDefault := "NX-OS default: every packet in qos-group 0 (no service-policy type qos input on " + p.Name + " or under system qos)"
		where, dscpEv := "", ""
		if cl.Policy != "" {
			classDefault = ""
			where = switchcollect.Excerpt(ifBlock+"\n"+strings.Join(c.SystemLines, "\n")+"\n"+strings.Join(cl.Lines, "\n"), 800)
			dscpEv = "DSCP -> qos-group: " + where
		}
		p.Trust = topology.InferredIf(cl.Trust, classDefault, ev(CmdQoSConfig, where))
		p.DSCPToTC = topology.InferredIf(cl.DSCPToQG, classDefault, ev(CmdQoSConfig, dscpEv))
	}
	tcq := map[int]int{}
	for g := 0; g < 8; g++ {
		tcq[g] = g
	}
	p.TCToQueue = topology.Known(tcq, ev(CmdQoSConfig, "qos-group N is egress queue N (c-out-8q-qN)"))

	mode := PFCMode(iq)
	modeDefault, modeEv := "", ifBlock
	if iq == nil || iq.PFCMode == "" {
		modeDefault, modeEv = "NX-OS default priority-flow-control mode auto, DCBX-negotiated (no `priority-flow-control mode` under interface "+p.Name+")", ""
	}
	nd, err := c.Lossless()
	if err != nil {
		e := evErr(CmdQoSConfig, err)
		p.PFC = topology.Unknown[topology.SwitchPFC](e)
		p.Buffer = topology.Unknown[topology.Buffer](e)
	} else {
		nqDefault, nqEv, bufEv := "NX-OS default network-qos policy, which pauses no priority (no service-policy type network-qos under system qos)", "", ""
		if nd.Policy != "" {
			nqEv = switchcollect.Excerpt(strings.Join(nd.Lines, "\n"), 600)
			nqDefault, bufEv = "", "no-drop qos-groups of the network-qos policy\n"+nqEv
		}
		prios := []int{}
		if mode != "off" {
			prios = append(prios, nd.PFCCoS...)
		}
		// PFC rests on both the mode and the network-qos policy: either default makes it inferred.
		p.PFC = topology.InferredIf(topology.SwitchPFC{RX: prios, TX: append([]int{}, prios...), Mode: mode},
			switchcollect.Join("; ", nqDefault, modeDefault), ev(CmdQoSConfig, switchcollect.Join("\n", modeEv, nqEv)))
		p.Buffer = topology.InferredIf(topology.Buffer{LosslessPGs: nd.QoSGroups, Profile: nd.Policy}, nqDefault, ev(CmdQoSConfig, bufEv))
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

	wd, wdDefault, wdEv := false, "NX-OS default watchdog off (no priority-flow-control watch-dog-interval, globally or on "+p.Name+")", ""
	switch {
	case iq != nil && iq.Watchdog != nil:
		wd, wdDefault, wdEv = *iq.Watchdog, "", ifBlock
	case c.Watchdog != nil:
		wd, wdDefault, wdEv = *c.Watchdog, "", c.WatchdogLine+" (global)"
	}
	wdm := map[int]bool{}
	for q := 0; q < 8; q++ {
		wdm[q] = wd
	}
	p.PFCWatchdog = topology.InferredIf(wdm, wdDefault, ev(CmdQoSConfig, switchcollect.Join("; ", wdEv, "the watchdog covers every no-drop queue of the port")))
	p.WatchdogTimers = topology.Unsupported(topology.WatchdogTimers{}, WatchdogTimersUnread, ev(CmdQoSConfig, ""))

	q, attached, err := c.Queues(iq)
	switch {
	case err != nil:
		e := evErr(CmdQoSConfig, err)
		p.ECN = topology.Unknown[map[int]bool](e)
		p.Scheduler = topology.Unknown[map[int]string](e)
	case !attached:
		p.ECN = topology.Inferred(q.ECN, "NX-OS default queuing policy, which marks no ECN (no service-policy type queuing output on "+p.Name+" or under system qos)",
			ev(CmdQoSConfig, ""))
		p.Scheduler = topology.Unknown[map[int]string](evErr(CmdQoSConfig,
			fmt.Errorf("no service-policy type queuing output on %s or under system qos; the default policy's scheduling is not in the running configuration", p.Name)))
	default:
		qEv := switchcollect.Excerpt(strings.Join(q.Lines, "\n"), 800)
		p.ECN = topology.Known(q.ECN, ev(CmdQoSConfig, qEv))
		p.Scheduler = topology.Known(q.Scheduler, ev(CmdQoSConfig, qEv+"\n(queues without priority are DWRR)"))
	}

	if mode == "auto" {
		p.DCBX = topology.InferredIf(topology.DCBX{Mode: "dcbx", Detail: "priority-flow-control mode auto: PFC follows DCBX negotiation"}, modeDefault, ev(CmdQoSConfig, modeEv))
	} else {
		p.DCBX = topology.InferredIf(topology.DCBX{Mode: "static", Detail: "priority-flow-control mode " + mode}, modeDefault, ev(CmdQoSConfig, modeEv))
	}
}

// queueCounters adds the port's egress queue counters to its pause counters. Without them the
// pause counters still stand, and the excerpt says why the queues are missing.
func queueCountersRef(name string, c map[string]int64, e topology.Evidence, s *sources) topology.Fact[map[string]int64] {
	q, ok := s.queues[name]
	switch {
	case s.queuesErr != nil:
		e.Excerpt += "\n(no queue counters: " + s.queuesErr.Error() + ")"
	case !ok:
		e.Excerpt += "\n(no queue counters: " + name + " is not in " + s.queuesCmd + ")"
	default:
		for k, v := range q {
			c[k] = v
		}
		e.Command = switchcollect.Join(" + ", e.Command, s.queuesCmd)
		e.Excerpt += fmt.Sprintf("\n%d egress queue counters", len(q))
	}
	return topology.Known(c, e)
}

// speedRef is Interface.Speed before ethSpeedOf replaced its regular expression.
func (i Interface) speedRef() (float64, string, error) {
	if i.EthSpeed == "" {
		if i.State == "up" && i.BWKbit > 0 {
			return float64(i.BWKbit) / 1e6, fmt.Sprintf("%s no \"eth_speed\"; \"eth_bw\": %d (Kbit/s), state up", i.Name, i.BWKbit), nil
		}
		return 0, "", fmt.Errorf("%s has no eth_speed (state %q)", i.Name, i.State)
	}
	m := ethSpeedRE.FindStringSubmatch(i.EthSpeed)
	if m == nil {
		return 0, "", fmt.Errorf("%s shows no speed: \"eth_speed\": %q (state %q)", i.Name, i.EthSpeed, i.State)
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil || n <= 0 {
		return 0, "", fmt.Errorf("%s shows no speed: \"eth_speed\": %q (state %q)", i.Name, i.EthSpeed, i.State)
	}
	gbps := n * map[string]float64{"M": 1e-3, "G": 1, "T": 1e3}[m[2]]
	return gbps, fmt.Sprintf("%s \"eth_speed\": %q", i.Name, i.EthSpeed), nil
}

var ethSpeedRE = regexp.MustCompile(`^(\d+(?:\.\d+)?) ?([MGT])b/s$`)
