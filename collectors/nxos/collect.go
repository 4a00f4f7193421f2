package nxos

import (
	"context"
	"fmt"

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
	lldp       []topology.LLDPNeighbor
	lldpErr    error
	cfg        *QoSConfig
	cfgErr     error
	pfc        map[string]PFCOper
	pfcErr     error
	queues     map[string]QueueCounters
	queuesCmd  string // the form that answered: CmdQueuingJSON or CmdQueuing
	queuesErr  error
	memo       portMemo // buildPort's
}

// Collect runs Commands through r and fills dev.Switch. Facts whose command failed are
// Unknown with the failure as evidence; Collect itself fails only when nothing could be
// read, or no port could be identified.
func (Platform) Collect(ctx context.Context, r collectors.Runner, _ inventory.DeviceSpec, dev *topology.Device) error {
	s, err := readSources(ctx, r)
	if err != nil {
		return err
	}
	nos := ""
	if s.versionErr == nil {
		nos = s.version.String()
	}
	return switchcollect.Switch{Platform: "nxos", NOS: nos,
		LLDPCommand: CmdLLDP, LLDP: s.lldp, LLDPErr: s.lldpErr, FrontPanel: IsFrontPanel,
		Config: "ipqos configuration", ConfigErr: s.cfgErr, Configured: configuredPorts(s.cfg),
		NoBufferSizes: noBufferSizes, BufferCommand: CmdQoSConfig,
	}.Fill(dev, func(name string) *topology.SwitchPort { return buildPort(name, s) })
}

// readSources sends the batch and parses each answer: a fact's source, or why it is missing.
func readSources(ctx context.Context, r collectors.Runner) (*sources, error) {
	res, err := switchcollect.Batch{Platform: "nxos", Commands: commands, MayBeEmpty: []string{CmdLLDP}}.Run(ctx, r)
	if err != nil {
		return nil, err
	}
	var s sources
	s.version, s.versionErr = switchcollect.Parse(res, CmdVersion, ParseVersion)
	s.ifaces, s.ifacesErr = switchcollect.Parse(res, CmdInterface, ParseInterface)
	s.lldp, s.lldpErr = switchcollect.Parse(res, CmdLLDP, ParseLLDP)
	s.cfg, s.cfgErr = switchcollect.Parse(res, CmdQoSConfig, ParseQoSConfig)
	s.pfc, s.pfcErr = switchcollect.Parse(res, CmdPFCOper, ParsePFCOper)
	s.queues, s.queuesCmd, s.queuesErr = readQueuing(ctx, r, res)
	return &s, nil
}

// readQueuing takes the batch's `show queuing interface | json`, or, when the switch refused
// it or its answer does not decode, the text form.
func readQueuing(ctx context.Context, r collectors.Runner, res switchcollect.Results) (map[string]QueueCounters, string, error) {
	q, jsonErr := switchcollect.Parse(res, CmdQueuingJSON, ParseQueuing)
	if jsonErr == nil {
		return q, CmdQueuingJSON, nil
	}
	text, err := switchcollect.Batch{Platform: "nxos", Commands: []string{CmdQueuing}}.Run(ctx, r)
	if err == nil {
		q, err = switchcollect.Parse(text, CmdQueuing, ParseQueuing)
	}
	if err != nil {
		return nil, CmdQueuing, fmt.Errorf("%w; %w", jsonErr, err)
	}
	return q, CmdQueuing, nil
}

// configuredPorts are the ports with an ipqos configuration of their own (the audit adds the
// front-panel ports with an LLDP neighbour).
func configuredPorts(cfg *QoSConfig) []string {
	var out []string
	if cfg != nil {
		for name, iq := range cfg.Interfaces {
			if len(iq.Lines) > 1 {
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
