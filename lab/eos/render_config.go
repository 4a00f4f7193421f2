package eos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// defaultTC is EOS's default DSCP to traffic-class map: 0-7 -> 1, 8-15 -> 0, then each block
// of eight to its own class (24-31 -> 3, 48-55 -> 6).
func defaultTC(dscp int) int {
	switch tc := dscp / 8; tc {
	case 0:
		return 1
	case 1:
		return 0
	default:
		return tc
	}
}

// DefaultDSCPMap is EOS's default DSCP to traffic-class map as an array (defaultTC).
func DefaultDSCPMap() [64]int {
	var m [64]int
	for d := range m {
		m[d] = defaultTC(d)
	}
	return m
}

// globalDSCPMap is the switch-wide map: the one most ports carry (EOS has no per-port map).
func globalDSCPMap(sw *switchstate.Switch) [64]int {
	return switchstate.Majority(sw.Ports, DefaultDSCPMap(), func(p *switchstate.Port) [64]int { return p.DSCPToTC })
}

// qosLines are a port's QoS settings as they read in a qos profile or an interface block:
// settings first, then the tx-queue sub-blocks (children indented three more spaces).
func qosLines(sp spelling, p *switchstate.Port) (settings, queues []string) {
	if !sp.trustOnIf {
		settings = append(settings, trustLine(p))
	}
	if prios := p.PFCPriorities(); len(prios) > 0 {
		settings = append(settings, "priority-flow-control on")
		for _, prio := range prios {
			settings = append(settings, fmt.Sprintf("priority-flow-control priority %d no-drop", prio))
		}
	}
	if p.WatchdogOn() {
		settings = append(settings, "priority-flow-control pause watchdog")
	}
	rr := roundRobinFrom(p)
	for q := 0; q < 8; q++ {
		var sub []string
		weighted := sp.perWeighed && p.Weight[q] > 0 && !p.Strict[q]
		switch {
		case weighted:
			sub = append(sub, "   no priority", fmt.Sprintf("   bandwidth percent %d", p.Weight[q]))
		case q == rr && !sp.perWeighed:
			sub = append(sub, "   no priority")
		case p.Strict[q]:
			// Strict is the EOS default above the round-robin queues; it is written out so
			// the audit reads the CNP queue's scheduling instead of assuming it.
			sub = append(sub, "   priority strict")
		}
		if p.ECN[q] {
			sub = append(sub, "   "+sp.ecn)
		}
		if len(sub) > 0 {
			queues = append(queues, "!", fmt.Sprintf("%s %d", sp.queue, q))
			queues = append(queues, sub...)
		}
	}
	return settings, queues
}

// profilePlan decides which ports take their QoS from the shared qos profile: those whose
// settings equal the most common ones. The others carry their own lines, as a port someone
// configured by hand would.
func profilePlan(sw *switchstate.Switch, sp spelling) (settings, queues []string, bound map[*switchstate.Port]bool) {
	key := func(p *switchstate.Port) string {
		s, q := qosLines(sp, p)
		return strings.Join(s, "\n") + "\n" + strings.Join(q, "\n")
	}
	want := switchstate.Majority(sw.Ports, "", key)
	bound = map[*switchstate.Port]bool{}
	for _, p := range sw.Ports {
		if key(p) == want {
			bound[p] = true
			if settings == nil {
				settings, queues = qosLines(sp, p)
			}
		}
	}
	return settings, queues, bound
}

// showRunningConfig renders `show running-config`: the header EOS prints, the global DSCP map
// and watchdog defaults, the qos profile, and one block per interface.
func showRunningConfig(sw *switchstate.Switch) string {
	var b strings.Builder
	line := func(indent int, s string) {
		b.WriteString(strings.Repeat("   ", indent) + s + "\n")
	}
	v := version(sw)
	fmt.Fprintf(&b, "! Command: show running-config\n! device: %s (%s, EOS-%s)\n!\n! boot system flash:/EOS-%s.swi\n!\n",
		sw.Name, model(sw), v, v)
	b.WriteString("no aaa root\n!\n")
	b.WriteString("transceiver qsfp default-mode 4x10G\n!\n")
	b.WriteString("service routing protocols model multi-agent\n!\n")
	line(0, "hostname "+sw.Name)
	writeManagement(&b, sw.ManagementOf())
	b.WriteString("!\nspanning-tree mode mstp\n!\n")

	if maps := dscpMapLines(globalDSCPMap(sw)); len(maps) > 0 {
		for _, l := range maps {
			line(0, l)
		}
		b.WriteString("!\n")
	}
	anyWatchdog := false
	for _, p := range sw.Ports {
		anyWatchdog = anyWatchdog || p.WatchdogOn()
	}
	if anyWatchdog {
		b.WriteString("priority-flow-control pause watchdog action drop\n" +
			"priority-flow-control pause watchdog default timeout 0.05\n" +
			"priority-flow-control pause watchdog default polling-interval 0.01\n" +
			"priority-flow-control pause watchdog default recovery-time 1.1\n!\n")
	}

	sp := spellingOf(sw)
	settings, queues, bound := profilePlan(sw, sp)
	if len(bound) > 0 {
		line(0, "qos profile "+sp.profile)
		for _, l := range append(settings, queues...) {
			line(1, l)
		}
		b.WriteString("!\n")
	}

	for _, p := range sw.SortedPorts() {
		line(0, "interface "+p.Name)
		if d := neighborLabel(p); d != "" {
			line(1, "description "+d)
		}
		if sp.routed {
			line(1, "no switchport")
		}
		if p.MTU != 1500 {
			line(1, fmt.Sprintf("mtu %d", p.MTU))
		}
		if p.PauseTX {
			line(1, "flowcontrol send on")
		}
		if p.PauseRX {
			line(1, "flowcontrol receive on")
		}
		var own []string
		if sp.trustOnIf {
			line(1, trustLine(p))
		}
		if !bound[p] {
			s, q := qosLines(sp, p)
			for _, l := range s {
				line(1, l)
			}
			own = q
		}
		if p.DCBX {
			line(1, "dcbx mode ieee")
		}
		if bound[p] {
			line(1, "service-profile "+sp.profile)
		}
		for _, l := range own {
			line(1, l)
		}
		for q := 0; q < 8 && sp.ecnCount; q++ {
			if p.ECN[q] {
				line(1, fmt.Sprintf("%s %d", sp.queue, q))
				line(2, "random-detect ecn count")
			}
		}
		b.WriteString("!\n")
	}
	b.WriteString("interface Management1\n   ip address 192.0.2.10/24\n!\nno ip routing\n!\nend\n")
	return b.String()
}

// dscpMapLines are the `qos map dscp ... to traffic-class N` lines, eight values a line: every
// DSCP the map moves away from the EOS default, and the RoCE and CNP DSCPs even where
// the default agrees, as a RoCE configuration states them (the audit does not trust the
// default map, which is third-party knowledge).
func dscpMapLines(m [64]int) []string {
	var out []string
	for tc := 0; tc < 8; tc++ {
		var ds []string
		for d := 0; d < 64; d++ {
			if m[d] == tc && (defaultTC(d) != tc || d == switchstate.RoCEDSCP || d == switchstate.CNPDSCP) {
				ds = append(ds, fmt.Sprint(d))
			}
		}
		for len(ds) > 0 {
			n := min(8, len(ds))
			out = append(out, fmt.Sprintf("qos map dscp %s to traffic-class %d", strings.Join(ds[:n], " "), tc))
			ds = ds[n:]
		}
	}
	return out
}

// writeManagement renders users, AAA, SNMP and NTP as EOS writes them (secrets included, as a
// real running-config shows them).
func writeManagement(b *strings.Builder, m switchstate.Management) {
	fmt.Fprintf(b, "!\nusername admin privilege 15 role network-admin secret sha512 %s\n", m.UserHash)
	fmt.Fprintf(b, "enable password sha512 %s\n", m.EnableHash)
	fmt.Fprintf(b, "!\ntacacs-server host 10.255.0.9 key 7 %s\n", m.TacacsKey)
	fmt.Fprintf(b, "radius-server host 10.255.0.10 key 7 %s\n", m.RadiusKey)
	fmt.Fprintf(b, "!\nsnmp-server community %s ro\n", m.Community)
	fmt.Fprintf(b, "snmp-server host 10.255.0.11 version 2c %s\n", m.Community) // bare: no word names it
	fmt.Fprintf(b, "snmp-server user ops network-operator v3 auth sha %s priv aes %s\n", m.SNMPAuth, m.SNMPPriv)
	fmt.Fprintf(b, "!\nntp authentication-key 1 md5 7 %s\nntp trusted-key 1\nntp authenticate\n", m.NTPKey)
	fmt.Fprintf(b, "!\nrouter bgp 65101\n   neighbor 10.255.1.1 remote-as 65100\n   neighbor 10.255.1.1 password 7 %s\n", m.BGPPassword)
}

// trustLine is the port's qos trust.
func trustLine(p *switchstate.Port) string {
	if p.TrustDSCP {
		return "qos trust dscp"
	}
	return "qos trust cos"
}
