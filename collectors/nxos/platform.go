package nxos

import (
	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/clabport"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// commands is the batch the NX-OS collector sends, in order. None takes an argument.
var commands = []string{CmdVersion, CmdInterface, CmdLLDP, CmdQoSConfig, CmdPFCOper, CmdQueuingJSON}

// fallbacks are sent only when the batch's JSON form of them failed.
var fallbacks = []string{CmdQueuing}

// descriptor is everything roceaudit knows of NX-OS.
var descriptor = collectors.Describe(collectors.Spec{
	Name: "nxos",
	Role: topology.RoleSwitch,
	CLI: &collectors.CLI{
		Scrapli:    "cisco_nxos",
		SetupInput: []string{"", "terminal width 511", "terminal length 0", "exit"},
		// "% Invalid command at '^' marker." (after a caret line), "% Invalid input detected".
		Refusals: []string{"% ", "ERROR:", "Syntax error", "Invalid command"},
	},
	Commands:      append(append([]string(nil), commands...), fallbacks...),
	Collector:     Platform{},
	Remedy:        Remediation,
	ExamplePort:   "Ethernet1/1",
	ExampleSwitch: exampleSwitch,
	ClabKinds:     map[string]func(string) string{"cisco_n9kv": clabport.Slot1, "vr-n9kv": clabport.Slot1, "vr-cisco_n9kv": clabport.Slot1},
	AnsibleOS:     []string{"cisco.nxos.nxos", "nxos"},
})

// Descriptor is the NX-OS platform for the registry.
func Descriptor() *collectors.Descriptor { return descriptor }

// Platform collects Cisco Nexus 9000 switches.
type Platform struct{}

// Plan lists the commands Collect may send, whatever the device: the batch, then the text
// forms sent when a JSON form fails.
func (Platform) Plan(inventory.DeviceSpec) []string {
	return append(append([]string(nil), commands...), fallbacks...)
}
