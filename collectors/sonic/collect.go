package sonic

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/evidence"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Why community SONiC cannot express these facts (see the package comment).
const (
	PauseUnsupported = "community SONiC has no 802.3x flow-control setting " +
		"(no pause field in sonic-port.yang, no CLI), so link pause cannot be configured or read"
	DCBXUnsupported = "community SONiC's LLDP daemon (lldpd) does not implement " +
		"DCBX; PFC and ETS are always configured statically"
)

// Collect runs the command set and fills dev.Switch. Facts that cannot be read are Unknown with the
// command and the reason; Collect itself fails only when there is no port to report on.
func (Platform) Collect(ctx context.Context, r collectors.Runner, spec inventory.DeviceSpec, dev *topology.Device) error {
	sw := &topology.SwitchFacts{Ports: []*topology.SwitchPort{}}
	dev.Switch = sw
	// Every command is fixed: all go in one batch (one session on a runner that batches).
	r = collectors.Prefetch(ctx, r, 1, []string{CmdVersion, CmdRunningConfig, CmdLLDP, CmdPFCCounters, CmdQueueCounters, CmdInterfaceCounters})

	if nos, ev := evidence.Read(ctx, r, CmdVersion, ParseVersion); ev.Error == "" {
		sw.NOS = nos
	}

	db, cfgEv := evidence.Read(ctx, r, CmdRunningConfig, ParseRunningConfig)
	if db != nil {
		db.indexKeys()
	}

	neighbours, lldpEv := evidence.Read(ctx, r, CmdLLDP, ParseLLDPTable)
	if lldpEv.Error == "" {
		lldpEv.Excerpt = lldpExcerpt(neighbours)
		sw.LLDP = topology.Known(neighbours, lldpEv)
	} else {
		sw.LLDP = topology.Unknown[[]topology.LLDPNeighbor](lldpEv)
	}

	counters := collectCounters(ctx, r)

	names, err := portNames(db, neighbours, spec.Interfaces)
	if err != nil {
		return fmt.Errorf("sonic %s: %w", spec.Name, err)
	}
	if len(names) == 0 {
		return fmt.Errorf("sonic %s: no port to audit: %s; %s", spec.Name, orNone(cfgEv.Error), orNone(lldpEv.Error))
	}
	for _, name := range names {
		sw.Ports = append(sw.Ports, portFacts(db, cfgEv, name, counters))
	}
	return nil
}

// portFacts derives one port's facts from CONFIG_DB (or marks them unknown with why).
func portFacts(db *ConfigDB, cfgEv topology.Evidence, name string, counters counterSet) *topology.SwitchPort {
	p := &topology.SwitchPort{Name: name}
	if db == nil {
		p.Speed = topology.Unknown[float64](cfgEv)
		p.MTU = topology.Unknown[topology.MTU](cfgEv)
		p.Trust = topology.Unknown[string](cfgEv)
		p.DSCPToTC = topology.Unknown[map[int]int](cfgEv)
		p.TCToQueue = topology.Unknown[map[int]int](cfgEv)
		p.PFC = topology.Unknown[topology.SwitchPFC](cfgEv)
		p.PFCWatchdog = topology.Unknown[map[int]bool](cfgEv)
		p.WatchdogTimers = topology.Unknown[topology.WatchdogTimers](cfgEv)
		p.ECN = topology.Unknown[map[int]bool](cfgEv)
		p.Scheduler = topology.Unknown[map[int]string](cfgEv)
		p.Buffer = topology.Unknown[topology.Buffer](cfgEv)
		p.Headroom = topology.Unknown[topology.Headroom](cfgEv)
		p.ECNOrder = topology.Unknown[topology.ECNOrder](cfgEv)
	} else {
		p.Aliases = PortAliases(db, name)
		p.Speed = fact(PortSpeed(db, name))
		p.MTU = fact(PortMTU(db, name))
		p.Trust = fact(PortTrust(db, name))
		p.DSCPToTC = fact(PortDSCPToTC(db, name))
		p.DSCPMap, _ = qosMap(db, name, "dscp_to_tc_map", true)
		p.TCToQueue = fact(PortTCToQueue(db, name))
		p.PFC = fact(PortPFC(db, name))
		p.PFCWatchdog = fact(PortPFCWatchdog(db, name))
		p.WatchdogTimers = fact(PortWatchdogTimers(db, name))
		p.ECN = fact(PortECN(db, name))
		p.Scheduler = fact(PortScheduler(db, name))
		p.Buffer = fact(PortBuffer(db, name))
		p.Headroom = PortHeadroom(db, name)
		p.ECNOrder = PortECNOrder(db, name)
	}
	cfg := topology.Evidence{Command: CmdRunningConfig}
	p.Pause = topology.Unsupported(topology.Pause{}, PauseUnsupported, cfg)
	p.DCBX = topology.Unsupported(topology.DCBX{Mode: "static", Detail: "no DCBX in community SONiC"}, DCBXUnsupported, cfg)
	p.Counters = counters.port(name)
	return p
}

// fact wraps a derivation's result; its errors get the command in front, so the evidence
// reads "show runningconfiguration all: ...".
func fact[T any](v T, excerpt string, err error) topology.Fact[T] {
	ev := topology.Evidence{Command: CmdRunningConfig}
	if err != nil {
		ev.Error = CmdRunningConfig + ": " + err.Error()
		return topology.Unknown[T](ev)
	}
	ev.Excerpt = excerpt
	return topology.Known(v, ev)
}

// portNames is what to report on: the inventory's interfaces when it names some, otherwise
// every front-panel PORT (role absent or "Ext") plus any EthernetN port with an LLDP
// neighbour that CONFIG_DB does not list (its facts will say so).
func portNames(db *ConfigDB, neighbours []topology.LLDPNeighbor, want []string) ([]string, error) {
	if len(want) > 0 {
		for _, n := range want {
			if err := topology.ValidName(n); err != nil {
				return nil, err
			}
		}
		out := slices.Clone(want)
		slices.SortFunc(out, portOrder.Compare)
		return slices.Compact(out), nil
	}
	set := map[string]bool{}
	if db != nil {
		set = make(map[string]bool, len(db.Tables["PORT"])) // grown a port at a time, 248 on a leaf
		for name, row := range db.Tables["PORT"] {
			if role := row["role"]; role == "" || role == "Ext" {
				set[name] = true
			}
		}
	}
	for _, n := range neighbours {
		if strings.HasPrefix(n.LocalPort, "Ethernet") && (db == nil || db.Tables["PORT"][n.LocalPort] == nil) {
			set[n.LocalPort] = true
		}
	}
	return sortedKeys(set), nil
}

func lldpExcerpt(ns []topology.LLDPNeighbor) string {
	if len(ns) == 0 {
		return "no LLDP neighbours"
	}
	var parts []string
	for i, n := range ns {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("... (%d in all)", len(ns)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s -> %s %s", n.LocalPort, n.SystemName, n.PortID))
	}
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "no error"
	}
	return s
}
