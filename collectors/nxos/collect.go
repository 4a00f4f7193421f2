package nxos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/natural"
	"github.com/roceaudit/roceaudit/topology"
)

// sources is every command's parsed output, or why it is missing.
type sources struct {
	version    Version
	versionErr error
	ifaces     map[string]Interface
	ifacesErr  error
	lldp       []topology.LLDPNeighbor
	lldpErr    error
	cfg        *QoSConfig
	cfgErr     error
}

// Collect runs Commands through r and fills dev.Switch. Facts whose command failed are
// Unknown with the failure as evidence; Collect itself fails only when nothing could be
// read, or no port could be identified.
func (Platform) Collect(ctx context.Context, r collectors.Runner, _ topology.DeviceSpec, dev *topology.Device) error {
	var s sources
	outputs := map[string]string{}
	var errs []error
	for _, cmd := range Commands {
		out, err := run(ctx, r, cmd)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("nxos: collection interrupted at %q: %w", cmd, ctxErr)
		}
		if err != nil {
			errs = append(errs, err)
			switch cmd {
			case CmdVersion:
				s.versionErr = err
			case CmdInterface:
				s.ifacesErr = err
			case CmdLLDP:
				s.lldpErr = err
			case CmdQoSConfig:
				s.cfgErr = err
			}
			continue
		}
		outputs[cmd] = out
	}
	if len(errs) == len(Commands) {
		return fmt.Errorf("nxos: no command succeeded: %w", errors.Join(errs...))
	}
	if out, ok := outputs[CmdVersion]; ok {
		s.version, s.versionErr = ParseVersion(out)
	}
	if out, ok := outputs[CmdInterface]; ok {
		s.ifaces, s.ifacesErr = ParseInterface(out)
	}
	if out, ok := outputs[CmdLLDP]; ok {
		s.lldp, s.lldpErr = ParseLLDP(out)
	}
	if out, ok := outputs[CmdQoSConfig]; ok {
		s.cfg, s.cfgErr = ParseQoSConfig(out)
	}

	sw := &topology.SwitchFacts{Ports: []*topology.SwitchPort{}}
	if s.versionErr == nil {
		sw.NOS = s.version.String()
	}
	if s.lldpErr != nil {
		sw.LLDP = topology.Unknown[[]topology.LLDPNeighbor](evErr(CmdLLDP, s.lldpErr))
	} else {
		sw.LLDP = topology.Known(s.lldp, ev(CmdLLDP, fmt.Sprintf("%d LLDP neighbours", len(s.lldp))))
	}
	names := portNames(&s)
	if len(names) == 0 && s.lldpErr != nil && s.cfgErr != nil {
		dev.Switch = sw
		return fmt.Errorf("nxos: no port to audit: LLDP (%v) and ipqos configuration (%v) both unreadable", s.lldpErr, s.cfgErr)
	}
	for _, n := range names {
		sw.Ports = append(sw.Ports, buildPort(n, &s))
	}
	dev.Switch = sw
	return nil
}

// run sends one command and turns a transport failure, a non-zero exit or an empty answer
// into an error naming the command. LLDP may legitimately print nothing.
func run(ctx context.Context, r collectors.Runner, cmd string) (string, error) {
	out, err := r.Run(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("%s: %w", cmd, err)
	}
	if out.ExitCode != 0 {
		return "", fmt.Errorf("%s: exit status %d: %s", cmd, out.ExitCode, excerpt(out.Stderr+out.Stdout, 300))
	}
	if strings.TrimSpace(out.Stdout) == "" && cmd != CmdLLDP {
		return "", fmt.Errorf("%s: empty output", cmd)
	}
	return out.Stdout, nil
}

// portNames are the front-panel ports with an LLDP neighbour or an ipqos configuration of
// their own, in natural order.
func portNames(s *sources) []string {
	set := map[string]bool{}
	for _, n := range s.lldp {
		if IsFrontPanel(n.LocalPort) {
			set[n.LocalPort] = true
		}
	}
	if s.cfg != nil {
		for name, iq := range s.cfg.Interfaces {
			if len(iq.Lines) > 1 {
				set[name] = true
			}
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	natural.Order{}.Sort(out)
	return out
}

func ev(cmd, exc string) topology.Evidence { return topology.Evidence{Command: cmd, Excerpt: exc} }

func evErr(cmd string, err error) topology.Evidence {
	return topology.Evidence{Command: cmd, Error: err.Error()}
}
