package eos

import (
	"context"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/switchcollect"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// sources is every command's parsed output, or why it is missing.
type sources struct {
	version    Version
	versionErr error
	ifaces     map[string]Interface
	ifacesErr  error
	flow       map[string]FlowControl
	flowErr    error
	lldp       []topology.LLDPNeighbor
	lldpErr    error
	cfg        *RunningConfig
	cfgErr     error
	pfc        map[string]PFCCounters
	pfcErr     error
	memo       portMemo // buildPort's
}

// Collect runs Commands through r and fills dev.Switch. Facts whose command failed are
// Unknown with the failure as evidence; Collect itself fails only when nothing at all could
// be read, or no port could be identified.
func (Platform) Collect(ctx context.Context, r collectors.Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	s, err := readSources(ctx, r)
	if err != nil {
		return err
	}
	nos := ""
	if s.versionErr == nil {
		nos = s.version.String()
	}
	return switchcollect.Switch{Platform: "eos", NOS: nos,
		LLDPCommand: CmdLLDP, LLDP: s.lldp, LLDPErr: s.lldpErr, FrontPanel: IsFrontPanel,
		Config: "running-config", ConfigErr: s.cfgErr, Configured: configuredPorts(s.cfg),
		NoBufferSizes: noBufferSizes, BufferCommand: CmdRunningConfig,
	}.Fill(dev, func(name string) *topology.SwitchPort { return buildPort(name, s) })
}

// readSources sends the batch and parses each answer: a fact's source, or why it is missing.
func readSources(ctx context.Context, r collectors.Runner) (*sources, error) {
	res, err := switchcollect.Batch{Platform: "eos", Commands: commands}.Run(ctx, r)
	if err != nil {
		return nil, err
	}
	var s sources
	s.version, s.versionErr = switchcollect.Parse(res, CmdVersion, ParseVersion)
	s.ifaces, s.ifacesErr = switchcollect.Parse(res, CmdInterfaces, ParseInterfaces)
	s.flow, s.flowErr = switchcollect.Parse(res, CmdFlowcontrol, ParseFlowcontrol)
	s.lldp, s.lldpErr = switchcollect.Parse(res, CmdLLDP, ParseLLDP)
	s.cfg, s.cfgErr = switchcollect.Parse(res, CmdRunningConfig, ParseRunningConfig)
	s.pfc, s.pfcErr = switchcollect.Parse(res, CmdPFCCounters, ParsePFCCounters)
	return &s, nil
}

// configuredPorts are the ports with a configuration block of their own (the audit adds the
// front-panel ports with an LLDP neighbour).
func configuredPorts(cfg *RunningConfig) []string {
	var out []string
	if cfg != nil {
		for name, ic := range cfg.Interfaces {
			if ic.HasLines {
				out = append(out, name)
			}
		}
	}
	return out
}

func ev(cmd, exc string) topology.Evidence { return topology.Evidence{Command: cmd, Excerpt: exc} }

func evErr(cmd string, err error) topology.Evidence {
	return topology.Evidence{Command: cmd, Error: err.Error()}
}
