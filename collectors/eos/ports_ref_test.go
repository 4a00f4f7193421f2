package eos

// The per-port fact building before portMemo (the configuration's maps built again for every
// port), kept as the reference the new one must agree with.

import (
	"fmt"
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
		p.Speed = topology.Unknown[float64](evErr(CmdInterfaces, s.ifacesErr))
		p.MTU = topology.Unknown[topology.MTU](evErr(CmdInterfaces, s.ifacesErr))
		p.Counters = topology.Unknown[map[string]int64](evErr(CmdInterfaces, s.ifacesErr))
	case !ifOK:
		e := evErr(CmdInterfaces, fmt.Errorf("%s is not in the output", name))
		p.Speed = topology.Unknown[float64](e)
		p.MTU = topology.Unknown[topology.MTU](e)
		p.Counters = topology.Unknown[map[string]int64](e)
	default:
		p.Speed = speedRef(name, iface)
		p.MTU = topology.Known(NormalizeMTU(iface.MTU), ev(CmdInterfaces,
			fmt.Sprintf("%s \"mtu\": %d (IP MTU, forwardingModel %s)", name, iface.MTU, iface.ForwardingModel)))
		p.Counters = countersRef(name, iface, s)
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
	configFactsRef(p, s.cfg, iface, ifOK)
	return p
}

// speed is "bandwidth" (bit/s) in Gb/s; a port that reports none (0, as a port that is not
// connected does) has an unknown speed, not 0.
func speedRef(name string, iface Interface) topology.Fact[float64] {
	if iface.Bandwidth <= 0 {
		return topology.Unknown[float64](evErr(CmdInterfaces,
			fmt.Errorf("%s reports no \"bandwidth\" (interfaceStatus %q)", name, iface.Status)))
	}
	return topology.Known(iface.Bandwidth/1e9, ev(CmdInterfaces,
		fmt.Sprintf("%s \"bandwidth\": %.0f (bit/s, interfaceStatus %s)", name, iface.Bandwidth, iface.Status)))
}

func countersRef(name string, iface Interface, s *sources) topology.Fact[map[string]int64] {
	c := map[string]int64{}
	var notes []string
	if iface.HasPauseCounter {
		c["rx_pause"], c["tx_pause"] = iface.RxPause, iface.TxPause
		notes = append(notes, fmt.Sprintf("rxPause %d txPause %d", iface.RxPause, iface.TxPause))
	}
	if len(iface.Traffic) > 0 {
		var parts []string
		for _, k := range trafficKeys {
			if v, ok := iface.Traffic[k.name]; ok {
				c[k.name] = v
				parts = append(parts, fmt.Sprintf("%s %d", k.eos, v))
			}
		}
		notes = append(notes, strings.Join(parts, " "))
	}
	switch pc, ok := s.pfc[name]; {
	case s.pfcErr != nil:
		notes = append(notes, "PFC counters unavailable: "+s.pfcErr.Error())
	case ok:
		c["pfc_rx_frames"], c["pfc_tx_frames"] = pc.RxFrames, pc.TxFrames
		notes = append(notes, fmt.Sprintf("PFC rxFrames %d txFrames %d", pc.RxFrames, pc.TxFrames))
	}
	return topology.Known(c, ev(CmdInterfaces, switchcollect.Excerpt(strings.Join(notes, "; "), 400)))
}

// configFacts fills the facts read from the running-config.
func configFactsRef(p *topology.SwitchPort, rc *RunningConfig, iface Interface, ifOK bool) {
	ic := rc.Interfaces[p.Name]
	eff, err := rc.EffectiveQoS(ic)
	if err != nil {
		switchcollect.UnknownConfig(p, evErr(CmdRunningConfig, err))
		return
	}
	block := func(match ...string) string {
		if len(eff.Lines) == 0 {
			return "interface " + p.Name + ": no configuration block"
		}
		return lineExcerptRef(eff.Lines, match...)
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
		p.Trust = topology.Inferred(trust, fmt.Sprintf(
			"EOS default trust %s for a %s port (no `qos trust` line on %s or its profile/port-channel); verify with `show qos interfaces %s`",
			map[string]string{"pcp": "cos", "dscp": "dscp"}[trust], mode, p.Name, p.Name), ev(CmdRunningConfig, ""))
	}

	dscp := DefaultDSCPToTC()
	for d, tc := range rc.DSCPToTC {
		dscp[d] = tc
	}
	// The EOS default map is third-party knowledge (a page quoting Arista's docs, UNVERIFIED): with no
	// `qos map dscp` line at all, the whole map is an assumption. Once the map is configured,
	// the lines are quoted and the DSCPs they leave alone noted as default.
	dscpDefault, dscpEv := "EOS default DSCP map (no `qos map dscp` line: DSCP 24-31 -> traffic-class 3, 48-55 -> 6); verify with `show qos maps`", ""
	if len(rc.DSCPLines) > 0 {
		dscpDefault, dscpEv = "", switchcollect.Excerpt(strings.Join(rc.DSCPLines, "\n"), 600)+"\n(other DSCPs: EOS default map)"
	}
	p.DSCPToTC = topology.InferredIf(dscp, dscpDefault, ev(CmdRunningConfig, dscpEv))

	tcq := map[int]int{}
	for tc := 0; tc < 8; tc++ {
		tcq[tc] = tc
	}
	for tc, q := range rc.TCToQueue {
		tcq[tc] = q
	}
	qDefault, qEv := "EOS default: traffic class N uses tx-queue N (no `qos map traffic-class ... to tx-queue` line)", ""
	if len(rc.QueueLines) > 0 {
		qDefault, qEv = "", switchcollect.Excerpt(strings.Join(rc.QueueLines, "\n"), 600)
	}
	p.TCToQueue = topology.InferredIf(tcq, qDefault, ev(CmdRunningConfig, qEv))

	prios := eff.PFCPriorities(rc.PFCAllOff)
	pfcEv := block("priority-flow-control on", "priority-flow-control mode", "priority-flow-control off", "priority-flow-control priority", "service-profile")
	if rc.PFCAllOff {
		pfcEv = "priority-flow-control all off\n" + pfcEv
	}
	p.PFC = topology.Known(topology.SwitchPFC{RX: prios, TX: append([]int{}, prios...)}, ev(CmdRunningConfig, pfcEv))

	wd := eff.Watchdog != nil && *eff.Watchdog
	wdm := map[int]bool{}
	for q := 0; q < 8; q++ {
		wdm[q] = wd
	}
	wdDefault, wdEv := "", block("priority-flow-control pause watchdog", "no priority-flow-control pause watchdog", "service-profile")
	switch {
	case eff.Watchdog == nil:
		wdDefault, wdEv = "EOS default watchdog off (no `priority-flow-control pause watchdog` on "+p.Name+" or its profile/port-channel)", ""
	case !wd:
		wdEv = block("no priority-flow-control pause watchdog", "service-profile")
	}
	p.PFCWatchdog = topology.InferredIf(wdm, wdDefault,
		ev(CmdRunningConfig, switchcollect.Join("; ", wdEv, "the EOS watchdog covers every no-drop priority of the port")))
	p.WatchdogTimers = watchdogTimers(rc, eff, p.Name)
	p.ECNOrder = ecnOrderFact(eff)

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

// lineExcerptRef is lineExcerpt before it wrote into one builder; it joins evidence lines, keeping only those that matter to match.
func lineExcerptRef(lines []string, match ...string) string {
	var keep []string
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i == 0 || strings.HasPrefix(t, "interface ") || strings.HasPrefix(t, "qos profile ") || strings.HasPrefix(t, "channel-group ") {
			keep = append(keep, l)
			continue
		}
		for _, m := range match {
			if strings.HasPrefix(t, m) {
				keep = append(keep, l)
				break
			}
		}
	}
	return switchcollect.Excerpt(strings.Join(keep, "\n"), 600)
}
