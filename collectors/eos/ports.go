package eos

import (
	"fmt"
	"maps"
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
		p.Speed = topology.Unknown[float64](evErr(CmdInterfaces, s.ifacesErr))
		p.MTU = topology.Unknown[topology.MTU](evErr(CmdInterfaces, s.ifacesErr))
		p.Counters = topology.Unknown[map[string]int64](evErr(CmdInterfaces, s.ifacesErr))
	case !ifOK:
		e := evErr(CmdInterfaces, fmt.Errorf("%s is not in the output", name))
		p.Speed = topology.Unknown[float64](e)
		p.MTU = topology.Unknown[topology.MTU](e)
		p.Counters = topology.Unknown[map[string]int64](e)
	default:
		p.Speed = speed(name, iface)
		p.MTU = topology.Known(NormalizeMTU(iface.MTU), ev(CmdInterfaces,
			name+` "mtu": `+strconv.Itoa(iface.MTU)+" (IP MTU, forwardingModel "+iface.ForwardingModel+")"))
		p.Counters = counters(name, iface, s)
	}

	switch fc, ok := s.flow[name]; {
	case s.flowErr != nil:
		p.Pause = topology.Unknown[topology.Pause](evErr(CmdFlowcontrol, s.flowErr))
	case !ok:
		p.Pause = topology.Unknown[topology.Pause](evErr(CmdFlowcontrol, fmt.Errorf("%s is not in the table", name)))
	default:
		p.Pause = topology.Known(topology.Pause{RX: fc.Receiving(), TX: fc.Sending()}, ev(CmdFlowcontrol, fc.Line))
	}

	if s.cfgErr != nil {
		switchcollect.UnknownConfig(p, evErr(CmdRunningConfig, s.cfgErr))
		return p
	}
	configFacts(p, s.cfg, iface, ifOK, &s.memo)
	return p
}

// speed is "bandwidth" (bit/s) in Gb/s; a port that reports none (0, as a port that is not
// connected does) has an unknown speed, not 0.
func speed(name string, iface Interface) topology.Fact[float64] {
	if iface.Bandwidth <= 0 {
		return topology.Unknown[float64](evErr(CmdInterfaces,
			fmt.Errorf("%s reports no \"bandwidth\" (interfaceStatus %q)", name, iface.Status)))
	}
	// strconv's 'f' with precision 0 is %.0f for a finite value, as JSON numbers are.
	b := make([]byte, 0, len(name)+len(iface.Status)+64)
	b = append(b, name...)
	b = append(b, ` "bandwidth": `...)
	b = strconv.AppendFloat(b, iface.Bandwidth, 'f', 0, 64)
	b = append(b, " (bit/s, interfaceStatus "...)
	b = append(b, iface.Status...)
	b = append(b, ')')
	return topology.Known(iface.Bandwidth/1e9, ev(CmdInterfaces, string(b)))
}

func counters(name string, iface Interface, s *sources) topology.Fact[map[string]int64] {
	c := make(map[string]int64, 2+len(trafficKeys)+2)
	notes, n := make([]byte, 0, 256), 0
	note := func() { // a "; " between notes, as strings.Join put it, even around an empty one
		if n++; n > 1 {
			notes = append(notes, "; "...)
		}
	}
	if iface.HasPauseCounter {
		c["rx_pause"], c["tx_pause"] = iface.RxPause, iface.TxPause
		note()
		notes = append(notes, "rxPause "...)
		notes = strconv.AppendInt(notes, iface.RxPause, 10)
		notes = append(notes, " txPause "...)
		notes = strconv.AppendInt(notes, iface.TxPause, 10)
	}
	if len(iface.Traffic) > 0 {
		note()
		first := true
		for _, k := range trafficKeys {
			if v, ok := iface.Traffic[k.name]; ok {
				c[k.name] = v
				if !first {
					notes = append(notes, ' ')
				}
				first = false
				notes = append(notes, k.eos...)
				notes = append(notes, ' ')
				notes = strconv.AppendInt(notes, v, 10)
			}
		}
	}
	switch pc, ok := s.pfc[name]; {
	case s.pfcErr != nil:
		note()
		notes = append(notes, "PFC counters unavailable: "...)
		notes = append(notes, s.pfcErr.Error()...)
	case ok:
		c["pfc_rx_frames"], c["pfc_tx_frames"] = pc.RxFrames, pc.TxFrames
		note()
		notes = append(notes, "PFC rxFrames "...)
		notes = strconv.AppendInt(notes, pc.RxFrames, 10)
		notes = append(notes, " txFrames "...)
		notes = strconv.AppendInt(notes, pc.TxFrames, 10)
	}
	return topology.Known(c, ev(CmdInterfaces, switchcollect.Excerpt(string(notes), 400)))
}

// portMemo is what configFacts reads from the running-config alone, made once a Collect
// rather than once a port: its maps are cloned into each port's facts, which own them (the
// DSCP map, built again for every port, was a quarter of an EOS leaf's allocation).
type portMemo struct {
	done                bool
	dscp, tcq           map[int]int
	dscpDefault, dscpEv string
	qDefault, qEv       string
	watchdog            [2]map[int]bool
	// eff is the port's Effective, its maps and tx-queues reused from one port to the next:
	// nothing of it outlives configFacts.
	eff      Effective
	txQueues []TxQueue
}

func (m *portMemo) init(rc *RunningConfig) {
	if m.done {
		return
	}
	m.done = true
	m.dscp = DefaultDSCPToTC()
	for d, tc := range rc.DSCPToTC {
		m.dscp[d] = tc
	}
	// The EOS default map is third-party knowledge (a page quoting Arista's docs, UNVERIFIED): with no
	// `qos map dscp` line at all, the whole map is an assumption. Once the map is configured,
	// the lines are quoted and the DSCPs they leave alone noted as default.
	m.dscpDefault = "EOS default DSCP map (no `qos map dscp` line: DSCP 24-31 -> traffic-class 3, 48-55 -> 6); verify with `show qos maps`"
	if len(rc.DSCPLines) > 0 {
		m.dscpDefault, m.dscpEv = "", switchcollect.Excerpt(strings.Join(rc.DSCPLines, "\n"), 600)+"\n(other DSCPs: EOS default map)"
	}
	m.tcq = map[int]int{}
	for tc := 0; tc < 8; tc++ {
		m.tcq[tc] = tc
	}
	for tc, q := range rc.TCToQueue {
		m.tcq[tc] = q
	}
	m.qDefault = "EOS default: traffic class N uses tx-queue N (no `qos map traffic-class ... to tx-queue` line)"
	if len(rc.QueueLines) > 0 {
		m.qDefault, m.qEv = "", switchcollect.Excerpt(strings.Join(rc.QueueLines, "\n"), 600)
	}
	for i, wd := range []bool{false, true} {
		m.watchdog[i] = map[int]bool{}
		for q := 0; q < 8; q++ {
			m.watchdog[i][q] = wd
		}
	}
}

// configFacts fills the facts read from the running-config.
func configFacts(p *topology.SwitchPort, rc *RunningConfig, iface Interface, ifOK bool, m *portMemo) {
	ic := rc.Interfaces[p.Name]
	if m.txQueues == nil {
		m.txQueues = make([]TxQueue, 0, 8) // a port has 8 tx-queues
	}
	err := rc.effectiveQoS(ic, &m.eff, &m.txQueues)
	eff := &m.eff
	if err != nil {
		switchcollect.UnknownConfig(p, evErr(CmdRunningConfig, err))
		return
	}
	block := func(match ...string) string {
		if len(eff.Lines) == 0 {
			return "interface " + p.Name + ": no configuration block"
		}
		return lineExcerpt(eff.Lines, match...)
	}

	// Trust: configured, else the EOS default for the port's mode.
	switch eff.Trust {
	case "dscp", "none":
		p.Trust = topology.Known(eff.Trust, ev(CmdRunningConfig, block("qos trust", "no qos trust", "service-profile")))
	case "cos":
		p.Trust = topology.Known("pcp", ev(CmdRunningConfig, block("qos trust", "service-profile")))
	default:
		routed := rc.Routed(ic) || (ifOK && iface.ForwardingModel == "routed")
		trust, mode := "pcp", "switched"
		if routed {
			trust, mode = "dscp", "routed"
		}
		eosTrust := "cos"
		if routed {
			eosTrust = "dscp"
		}
		p.Trust = topology.Inferred(trust, "EOS default trust "+eosTrust+" for a "+mode+" port (no `qos trust` line on "+p.Name+
			" or its profile/port-channel); verify with `show qos interfaces "+p.Name+"`", ev(CmdRunningConfig, ""))
	}

	m.init(rc)
	p.DSCPToTC = topology.InferredIf(maps.Clone(m.dscp), m.dscpDefault, ev(CmdRunningConfig, m.dscpEv))
	p.TCToQueue = topology.InferredIf(maps.Clone(m.tcq), m.qDefault, ev(CmdRunningConfig, m.qEv))

	prios := eff.PFCPriorities(rc.PFCAllOff)
	pfcEv := block("priority-flow-control on", "priority-flow-control mode", "priority-flow-control off", "priority-flow-control priority", "service-profile")
	if rc.PFCAllOff {
		pfcEv = "priority-flow-control all off\n" + pfcEv
	}
	p.PFC = topology.Known(topology.SwitchPFC{RX: prios, TX: append([]int{}, prios...)}, ev(CmdRunningConfig, pfcEv))

	wd := eff.Watchdog != nil && *eff.Watchdog
	wdi := 0
	if wd {
		wdi = 1
	}
	wdm := maps.Clone(m.watchdog[wdi])
	wdDefault, wdEv := "", block("priority-flow-control pause watchdog", "no priority-flow-control pause watchdog", "service-profile")
	switch {
	case eff.Watchdog == nil:
		wdDefault, wdEv = "EOS default watchdog off (no `priority-flow-control pause watchdog` on "+p.Name+" or its profile/port-channel)", ""
	case !wd:
		wdEv = block("no priority-flow-control pause watchdog", "service-profile")
	}
	p.PFCWatchdog = topology.InferredIf(wdm, wdDefault,
		ev(CmdRunningConfig, switchcollect.Join("; ", wdEv, "the EOS watchdog covers every no-drop priority of the port")))
	p.WatchdogTimers = watchdogTimers(rc, *eff, p.Name)
	p.ECNOrder = ecnOrderFact(*eff)

	p.ECN = topology.Known(eff.ECNQueues(), ev(CmdRunningConfig, block("tx-queue", "uc-tx-queue", "random-detect ecn", "service-profile")))
	schEv := block("tx-queue", "uc-tx-queue", "priority strict", "no priority", "bandwidth", "service-profile") +
		"\n(queues above the highest `no priority` queue: strict, the EOS default)"
	schDefault := ""
	if !eff.SchedulingConfigured() {
		schDefault = "EOS default: every tx-queue strict priority (no `priority strict` or `no priority` under a tx-queue of " +
			p.Name + "); verify with `show qos interfaces " + p.Name + "`"
	}
	p.Scheduler = topology.InferredIf(eff.Schedulers(), schDefault, ev(CmdRunningConfig, schEv))

	// DCBX is per physical link (it rides on the member's own LLDP), so a member's dcbx mode is
	// its own line only, like its flowcontrol lines.
	if ic != nil && ic.DCBX != "" {
		p.DCBX = topology.Known(topology.DCBX{Mode: "dcbx", Detail: "dcbx mode " + ic.DCBX}, ev(CmdRunningConfig, block("dcbx mode")))
	} else {
		p.DCBX = topology.Known(topology.DCBX{Mode: "static", Detail: "no dcbx mode (DCBX off, the EOS default)"},
			ev(CmdRunningConfig, "no dcbx mode line under interface "+p.Name))
	}

	p.Buffer = topology.Known(topology.Buffer{LosslessPGs: append([]int{}, prios...), Profile: eff.Profile},
		ev(CmdRunningConfig, "the no-drop priorities (EOS reserves PFC headroom for each; the running-config has no buffer profile)\n"+pfcEv))
}
