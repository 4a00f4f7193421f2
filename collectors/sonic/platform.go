package sonic

import (
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// The commands the SONiC collector sends. None takes an argument, so nothing from an
// inventory or a device reaches the command line.
const (
	CmdVersion       = "show version"
	CmdRunningConfig = "show runningconfiguration all"
	CmdLLDP          = "show lldp table"
	CmdPFCCounters   = "show pfc counters"
	CmdQueueCounters = "show queue counters"
)

// Commands is every command the collector sends, in the order it sends them.
var Commands = []string{CmdVersion, CmdRunningConfig, CmdLLDP, CmdPFCCounters, CmdQueueCounters}

// Platform collects community SONiC switches.
type Platform struct{}

var _ collectors.Platform = Platform{}

// Name is the inventory platform name.
func (Platform) Name() string { return "sonic" }

// Role is always switch.
func (Platform) Role() topology.Role { return topology.RoleSwitch }

// Allowlist is exactly Commands.
func (Platform) Allowlist() *collectors.Allowlist { return allowlist() }

// allowlist is compiled once: it is consulted for every command sent.
var allowlist = sync.OnceValue(func() *collectors.Allowlist { return collectors.NewAllowlist(Commands...) })

// Plan lists the commands Collect sends, whatever the device.
func (Platform) Plan(inventory.DeviceSpec) []string { return append([]string(nil), Commands...) }
