package nxos

import (
	"sync"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// Commands is every command the NX-OS collector sends, in order. None takes an argument.
var Commands = []string{CmdVersion, CmdInterface, CmdLLDP, CmdQoSConfig}

// Platform collects Cisco Nexus 9000 switches.
type Platform struct{}

var _ collectors.Platform = Platform{}

// Name is the inventory platform name.
func (Platform) Name() string { return "nxos" }

// Role is always switch.
func (Platform) Role() topology.Role { return topology.RoleSwitch }

// Allowlist is exactly Commands.
func (Platform) Allowlist() *collectors.Allowlist { return allowlist() }

// allowlist is compiled once: it is consulted for every command sent.
var allowlist = sync.OnceValue(func() *collectors.Allowlist { return collectors.NewAllowlist(Commands...) })

// Plan lists the commands Collect sends, whatever the device.
func (Platform) Plan(inventory.DeviceSpec) []string { return append([]string(nil), Commands...) }
