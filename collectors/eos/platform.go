package eos

import (
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Commands is every command the EOS collector sends, in the order it sends them. None takes
// an argument, so nothing from an inventory or a device reaches the command line.
var Commands = []string{CmdVersion, CmdInterfaces, CmdFlowcontrol, CmdLLDP, CmdRunningConfig, CmdPFCCounters}

// Platform collects Arista EOS switches.
type Platform struct{}

var _ collectors.Platform = Platform{}

// Name is the inventory platform name.
func (Platform) Name() string { return "eos" }

// Role is always switch.
func (Platform) Role() topology.Role { return topology.RoleSwitch }

// Allowlist is exactly Commands.
func (Platform) Allowlist() *collectors.Allowlist { return allowlist() }

// allowlist is compiled once: it is consulted for every command sent.
var allowlist = sync.OnceValue(func() *collectors.Allowlist { return collectors.NewAllowlist(Commands...) })

// Plan lists the commands Collect sends, whatever the device.
func (Platform) Plan(inventory.DeviceSpec) []string { return append([]string(nil), Commands...) }
