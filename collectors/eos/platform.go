package eos

import (
	"regexp"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/collectors/internal/clabport"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// commands is every command the EOS collector sends, in the order it sends them. None takes
// an argument, so nothing from an inventory or a device reaches the command line.
var commands = []string{CmdVersion, CmdInterfaces, CmdFlowcontrol, CmdLLDP, CmdRunningConfig, CmdPFCCounters}

// descriptor is everything roceaudit knows of Arista EOS.
var descriptor = collectors.Describe(collectors.Spec{
	Name: "eos",
	Role: topology.RoleSwitch,
	CLI: &collectors.CLI{
		Scrapli:    "arista_eos",
		SetupInput: []string{"", "terminal width 32767", "terminal length 0", "exit"},
		// scrapligo's arista_eos failed-when-contains, and the answer to "| json" on a command
		// without a JSON model.
		Refusals: []string{"% Ambiguous command", "% Error", "% Incomplete command", "% Invalid input",
			"% Unavailable command", "% Cannot commit", "% This is an unconverted command"},
	},
	Commands:      commands,
	Collector:     Platform{},
	Remedy:        Remediation,
	ExamplePort:   "Ethernet1",
	ExampleSwitch: exampleSwitch,
	ClabKinds: map[string]func(string) string{
		"ceos": ceosPort, "arista_ceos": ceosPort,
		"vr-veos": clabport.Slot1, "vr-arista_veos": clabport.Slot1, "arista_veos": clabport.Slot1,
	},
	AnsibleOS: []string{"arista.eos.eos", "eos"},
})

// ceosEth is how cEOS names a data port: eth1 (or et1 with INTFTYPE=et) is Ethernet1, and
// eth1_1 stands for Ethernet1/1.
var ceosEth = regexp.MustCompile(`^eth?([1-9][0-9]*)((?:_[0-9]+)*)$`)

// ceosPort is cEOS's name for the port containerlab wires as iface.
func ceosPort(iface string) string {
	if m := ceosEth.FindStringSubmatch(iface); m != nil {
		return "Ethernet" + m[1] + strings.ReplaceAll(m[2], "_", "/")
	}
	return iface
}

// Descriptor is the EOS platform for the registry.
func Descriptor() *collectors.Descriptor { return descriptor }

// Platform collects Arista EOS switches.
type Platform struct{}

// Plan lists the commands Collect sends, whatever the device.
func (Platform) Plan(inventory.DeviceSpec) []string { return append([]string(nil), commands...) }
