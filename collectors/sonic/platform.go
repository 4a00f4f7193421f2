package sonic

import (
	"strconv"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/clabport"
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
	// CmdInterfaceCounters gives each port's packets in and out: a transfer's ECMP member is
	// told by which uplinks carried it.
	CmdInterfaceCounters = "show interfaces counters"
)

// commands is every command the collector sends, in the order it sends them.
var commands = []string{CmdVersion, CmdRunningConfig, CmdLLDP, CmdPFCCounters, CmdQueueCounters, CmdInterfaceCounters}

// descriptor is everything roceaudit knows of community SONiC.
var descriptor = collectors.Describe(collectors.Spec{
	Name:          "sonic",
	Role:          topology.RoleSwitch,
	Commands:      commands,
	Collector:     Platform{},
	Remedy:        Remediation,
	ExamplePort:   "Ethernet0",
	ExampleSwitch: exampleSwitch,
	ClabKinds:     map[string]func(string) string{"sonic-vs": clabPort, "sonic-vm": clabPort},
	AnsibleOS:     []string{"dellemc.enterprise_sonic.sonic", "sonic"},
})

// clabPort is SONiC's name for the port containerlab wires as iface: eth1 is Ethernet0, eth2
// Ethernet4 (each port four lanes).
func clabPort(iface string) string {
	if n, ok := clabport.Number(iface); ok && n <= 1024 {
		return "Ethernet" + strconv.Itoa(4*(n-1))
	}
	return iface
}

// Descriptor is the SONiC platform for the registry.
func Descriptor() *collectors.Descriptor { return descriptor }

// Platform collects community SONiC switches.
type Platform struct{}

// Plan lists the commands Collect sends, whatever the device.
func (Platform) Plan(inventory.DeviceSpec) []string { return descriptor.Commands() }
