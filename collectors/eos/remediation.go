package eos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/example"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the EOS configuration that makes in.Port pass in.CheckID, or "" for a check
// this platform has no fix for. Classes and queues are the ones the port's facts show (EOS
// maps traffic class N to tx-queue N unless `qos map traffic-class ... to tx-queue` says
// otherwise); CNPs keep the class the switch already gives their DSCP.
func Remediation(in remedy.Input) string {
	r := in.Recipe
	intf := func(lines ...string) string {
		return "configure\ninterface " + in.Port + "\n   " + strings.Join(lines, "\n   ") + "\nend"
	}
	switch in.CheckID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		return intf(fmt.Sprintf("mtu %d", IPMTUFor(r.SwitchMTU)))
	case "SW-TRUST":
		return intf("qos trust dscp")
	case "SW-DSCP-MAP":
		lines := []string{"configure", fmt.Sprintf("qos map dscp %d to traffic-class %d", r.RoCEDSCP, in.RoCEClass())}
		if cnp, mapped := in.CNPClass(); !mapped {
			lines = append(lines, fmt.Sprintf("qos map dscp %d to traffic-class %d", r.CNPDSCP, cnp))
		}
		return strings.Join(append(lines, "end"), "\n")
	case "SW-PFC", "LINK-PFC":
		lines := []string{"priority-flow-control on", fmt.Sprintf("priority-flow-control priority %d no-drop", r.RoCEPriority)}
		for _, p := range in.ExtraPFC() {
			lines = append(lines, fmt.Sprintf("no priority-flow-control priority %d no-drop", p))
		}
		return intf(lines...)
	case "SW-PFC-WATCHDOG":
		return fmt.Sprintf("configure\npriority-flow-control pause watchdog default timeout 0.05\ninterface %s\n   priority-flow-control pause watchdog\nend", in.Port)
	case "LINK-PFC-STORM":
		return watchdogRecoveryFix(in)
	case "SW-PAUSE":
		return intf("flowcontrol send off", "flowcontrol receive off")
	case "SW-ECN":
		return intf(fmt.Sprintf("tx-queue %d", in.RoCEQueue()),
			"   random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 20") +
			"\n! on platforms with unicast queues use uc-tx-queue instead of tx-queue"
	case "SW-CNP-QUEUE":
		return intf(fmt.Sprintf("tx-queue %d", in.CNPQueue()), "   priority strict") +
			"\n! a `no priority` on any higher-numbered tx-queue makes this queue round-robin too: remove it"
	case "SW-DCBX", "PATH-DCBX-MIX":
		if r.DCBX == recipe.DCBXDynamic {
			return intf("dcbx mode ieee")
		}
		return intf("no dcbx mode")
	case "SW-BUFFER":
		return intf("priority-flow-control on", fmt.Sprintf("priority-flow-control priority %d no-drop", r.RoCEPriority)) +
			"\n! EOS sizes PFC headroom for each no-drop priority itself"
	}
	return ""
}

// exampleSwitch is the facts explain shows the EOS fixes for: an IP MTU of 1500.
func exampleSwitch() *topology.SwitchPort {
	return example.Switch("Ethernet1", NormalizeMTU(1500))
}
