package nxos

import (
	"fmt"
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
			ev(CmdInterface, fmt.Sprintf("%s \"eth_mtu\": %d", name, iface.MTU)))
		p.Pause = topology.Known(topology.Pause{RX: iface.InFlowCtrl == "on", TX: iface.OutFlowCtrl == "on"},
			ev(CmdInterface, fmt.Sprintf("%s \"eth_in_flowctrl\": %q, \"eth_out_flowctrl\": %q", name, iface.InFlowCtrl, iface.OutFlowCtrl)))
		c := map[string]int64{}
		if iface.HasPauseCounter {
			c["rx_pause"], c["tx_pause"] = iface.InPause, iface.OutPause
		}
		p.Counters = topology.Known(c, ev(CmdInterface, fmt.Sprintf("%s eth_inpause %d eth_outpause %d", name, iface.InPause, iface.OutPause)))
	}
	if s.cfgErr != nil {
		switchcollect.UnknownConfig(p, evErr(CmdQoSConfig, s.cfgErr))
		return p
	}
	configFacts(p, s.cfg, iface.Bundle)
	return p
}

// configFacts fills the facts read from `show running-config ipqos`; bundle is the port's
// eth_bundle (see QoSConfig.ForPort).
func configFacts(p *topology.SwitchPort, c *QoSConfig, bundle string) {
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
		where := inferred + "NX-OS default: every packet in qos-group 0 (no service-policy type qos input on " + p.Name + " or under system qos)"
		if cl.Policy != "" {
			where = switchcollect.Excerpt(ifBlock+"\n"+strings.Join(c.SystemLines, "\n")+"\n"+strings.Join(cl.Lines, "\n"), 800)
		}
		p.Trust = topology.Known(cl.Trust, ev(CmdQoSConfig, where))
		dscpEv := "DSCP -> qos-group: " + where
		if cl.Policy == "" {
			dscpEv = where
		}
		p.DSCPToTC = topology.Known(cl.DSCPToQG, ev(CmdQoSConfig, dscpEv))
	}
	tcq := map[int]int{}
	for g := 0; g < 8; g++ {
		tcq[g] = g
	}
	p.TCToQueue = topology.Known(tcq, ev(CmdQoSConfig, "qos-group N is egress queue N (c-out-8q-qN)"))

	mode := PFCMode(iq)
	modeEv := ifBlock
	if iq == nil || iq.PFCMode == "" {
		modeEv = inferred + "NX-OS default priority-flow-control mode auto, DCBX-negotiated (no `priority-flow-control mode` under interface " + p.Name + ")"
	}
	nd, err := c.Lossless()
	if err != nil {
		e := evErr(CmdQoSConfig, err)
		p.PFC = topology.Unknown[topology.SwitchPFC](e)
		p.Buffer = topology.Unknown[topology.Buffer](e)
	} else {
		nqEv := inferred + "NX-OS default network-qos policy, which pauses no priority (no service-policy type network-qos under system qos)"
		if nd.Policy != "" {
			nqEv = switchcollect.Excerpt(strings.Join(nd.Lines, "\n"), 600)
		}
		prios := []int{}
		if mode != "off" {
			prios = append(prios, nd.PFCCoS...)
		}
		pfcEv, bufEv := modeEv+"\n"+nqEv, "no-drop qos-groups of the network-qos policy\n"+nqEv
		if nd.Policy == "" { // the mark leads, so the check quotes what was assumed
			pfcEv, bufEv = nqEv+"\n"+modeEv, nqEv
		}
		p.PFC = topology.Known(topology.SwitchPFC{RX: prios, TX: append([]int{}, prios...), Mode: mode}, ev(CmdQoSConfig, pfcEv))
		p.Buffer = topology.Known(topology.Buffer{LosslessPGs: nd.QoSGroups, Profile: nd.Policy}, ev(CmdQoSConfig, bufEv))
	}

	wd, wdEv := false, inferred+"NX-OS default watchdog off (no priority-flow-control watch-dog-interval, globally or on "+p.Name+")"
	switch {
	case iq != nil && iq.Watchdog != nil:
		wd, wdEv = *iq.Watchdog, ifBlock
	case c.Watchdog != nil:
		wd, wdEv = *c.Watchdog, c.WatchdogLine+" (global)"
	}
	wdm := map[int]bool{}
	for q := 0; q < 8; q++ {
		wdm[q] = wd
	}
	p.PFCWatchdog = topology.Known(wdm, ev(CmdQoSConfig, wdEv+"; the watchdog covers every no-drop queue of the port"))

	q, attached, err := c.Queues(iq)
	switch {
	case err != nil:
		e := evErr(CmdQoSConfig, err)
		p.ECN = topology.Unknown[map[int]bool](e)
		p.Scheduler = topology.Unknown[map[int]string](e)
	case !attached:
		p.ECN = topology.Known(q.ECN, ev(CmdQoSConfig, inferred+"NX-OS default queuing policy, which marks no ECN (no service-policy type queuing output on "+p.Name+" or under system qos)"))
		p.Scheduler = topology.Unknown[map[int]string](evErr(CmdQoSConfig,
			fmt.Errorf("no service-policy type queuing output on %s or under system qos; the default policy's scheduling is not in the running configuration", p.Name)))
	default:
		qEv := switchcollect.Excerpt(strings.Join(q.Lines, "\n"), 800)
		p.ECN = topology.Known(q.ECN, ev(CmdQoSConfig, qEv))
		p.Scheduler = topology.Known(q.Scheduler, ev(CmdQoSConfig, qEv+"\n(queues without priority are DWRR)"))
	}

	if mode == "auto" {
		p.DCBX = topology.Known(topology.DCBX{Mode: "dcbx", Detail: "priority-flow-control mode auto: PFC follows DCBX negotiation"}, ev(CmdQoSConfig, modeEv))
	} else {
		p.DCBX = topology.Known(topology.DCBX{Mode: "static", Detail: "priority-flow-control mode " + mode}, ev(CmdQoSConfig, modeEv))
	}
}
