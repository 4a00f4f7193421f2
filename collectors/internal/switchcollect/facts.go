package switchcollect

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/natural"
	"github.com/roceaudit/roceaudit/topology"
)

// Switch is what a collector read that is not per port, ready to become dev.Switch.
type Switch struct {
	// Platform names the collector in Fill's error ("eos").
	Platform string
	// NOS is the switch's software, "" when it could not be read.
	NOS string
	// LLDPCommand read LLDP, the neighbours or why they are unknown.
	LLDPCommand string
	LLDP        []topology.LLDPNeighbor
	LLDPErr     error
	// FrontPanel says which LLDP local ports are audited.
	FrontPanel func(name string) bool
	// Config names the configuration source in Fill's error ("running-config"); ConfigErr is
	// why it could not be read; Configured are the ports with configuration of their own.
	Config     string
	ConfigErr  error
	Configured []string
	// NoBufferSizes, when set, says why the NOS shows no headroom or PFC-trigger sizes: the
	// ports' Headroom and ECNOrder facts are then unsupported with that reason, read by
	// BufferCommand.
	NoBufferSizes, BufferCommand string
}

// Fill sets dev.Switch: the NOS, the LLDP fact, and port(name) for every port to audit (the
// front-panel ports with an LLDP neighbour, plus Configured, in natural order). When there is
// no port to audit it still sets dev.Switch and returns an error saying why.
func (s Switch) Fill(dev *topology.Device, port func(name string) *topology.SwitchPort) error {
	sw := &topology.SwitchFacts{Ports: []*topology.SwitchPort{}, NOS: s.NOS}
	sw.LLDP = lldpFact(s.LLDPCommand, s.LLDP, s.LLDPErr)
	names := portNames(s.LLDP, s.FrontPanel, s.Configured)
	if len(names) == 0 {
		dev.Switch = sw
		if s.LLDPErr != nil && s.ConfigErr != nil {
			return fmt.Errorf("%s: no port to audit: LLDP (%v) and %s (%v) both unreadable", s.Platform, s.LLDPErr, s.Config, s.ConfigErr)
		}
		// Nothing to audit is not a clean switch: say why, so the audit is incomplete.
		why := "no front-panel port has an LLDP neighbour or its own configuration"
		if s.ConfigErr != nil {
			why += fmt.Sprintf(" (%s unreadable: %v)", s.Config, s.ConfigErr)
		}
		if s.LLDPErr != nil {
			why += fmt.Sprintf(" (LLDP unreadable: %v)", s.LLDPErr)
		}
		return fmt.Errorf("%s: no port to audit: %s", s.Platform, why)
	}
	for _, n := range names {
		p := port(n)
		if s.NoBufferSizes != "" {
			// A port whose collector already said more (the thresholds it did read) keeps that.
			e := topology.Evidence{Command: s.BufferCommand}
			if p.Headroom.Reason == "" {
				p.Headroom = topology.Unsupported(topology.Headroom{}, s.NoBufferSizes, e)
			}
			if p.ECNOrder.Reason == "" {
				p.ECNOrder = topology.Unsupported(topology.ECNOrder{}, s.NoBufferSizes, e)
			}
		}
		sw.Ports = append(sw.Ports, p)
	}
	dev.Switch = sw
	return nil
}

// lldpFact is the switch's LLDP neighbours read by cmd, or Unknown with err.
func lldpFact(cmd string, ns []topology.LLDPNeighbor, err error) topology.Fact[[]topology.LLDPNeighbor] {
	if err != nil {
		return topology.Unknown[[]topology.LLDPNeighbor](topology.Evidence{Command: cmd, Error: err.Error()})
	}
	return topology.Known(ns, topology.Evidence{Command: cmd, Excerpt: fmt.Sprintf("%d LLDP neighbours", len(ns))})
}

// portNames are the local ports of LLDP neighbours that frontPanel accepts, plus configured
// (taken as they are), each once, in natural order.
func portNames(ns []topology.LLDPNeighbor, frontPanel func(string) bool, configured []string) []string {
	set := map[string]bool{}
	for _, n := range ns {
		if frontPanel(n.LocalPort) {
			set[n.LocalPort] = true
		}
	}
	for _, name := range configured {
		set[name] = true
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	natural.Order{}.Sort(out)
	return out
}

// Excerpt shortens text for evidence: trimmed, and cut at max bytes with "…" when longer.
func Excerpt(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// UnknownConfig marks Unknown, with e, every port fact read from the switch's configuration:
// all but MTU, Pause and Counters.
func UnknownConfig(p *topology.SwitchPort, e topology.Evidence) {
	p.Trust = topology.Unknown[string](e)
	p.DSCPToTC = topology.Unknown[map[int]int](e)
	p.TCToQueue = topology.Unknown[map[int]int](e)
	p.PFC = topology.Unknown[topology.SwitchPFC](e)
	p.PFCWatchdog = topology.Unknown[map[int]bool](e)
	p.ECN = topology.Unknown[map[int]bool](e)
	p.Scheduler = topology.Unknown[map[int]string](e)
	p.DCBX = topology.Unknown[topology.DCBX](e)
	p.Buffer = topology.Unknown[topology.Buffer](e)
}

// Join joins the non-empty parts with sep, for evidence assembled from optional pieces.
func Join(sep string, parts ...string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}
