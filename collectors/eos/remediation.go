package eos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the EOS configuration that makes port pass checkID under recipe r, or ""
// for a check this platform has no fix for. Queues are the recipe priorities because EOS maps
// traffic class N to tx-queue N unless `qos map traffic-class ... to tx-queue` says otherwise.
func Remediation(checkID, port string, _ *topology.SwitchPort, r recipe.Recipe) string {
	intf := func(lines ...string) string {
		return "configure\ninterface " + port + "\n   " + strings.Join(lines, "\n   ") + "\nend"
	}
	switch checkID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		return intf(fmt.Sprintf("mtu %d", IPMTUFor(r.SwitchMTU)))
	case "SW-TRUST":
		return intf("qos trust dscp")
	case "SW-DSCP-MAP":
		return fmt.Sprintf("configure\nqos map dscp %d to traffic-class %d\nqos map dscp %d to traffic-class %d\nend",
			r.RoCEDSCP, r.RoCEPriority, r.CNPDSCP, r.CNPPriority)
	case "SW-PFC", "LINK-PFC":
		var off []string
		for p := 0; p < 8; p++ {
			if p != r.RoCEPriority {
				off = append(off, fmt.Sprintf("no priority-flow-control priority %d no-drop", p))
			}
		}
		return intf(append([]string{"priority-flow-control on", fmt.Sprintf("priority-flow-control priority %d no-drop", r.RoCEPriority)}, off...)...)
	case "SW-PFC-WATCHDOG":
		return fmt.Sprintf("configure\npriority-flow-control pause watchdog default timeout 0.05\ninterface %s\n   priority-flow-control pause watchdog\nend", port)
	case "SW-PAUSE":
		return intf("flowcontrol send off", "flowcontrol receive off")
	case "SW-ECN":
		return intf(fmt.Sprintf("tx-queue %d", r.RoCEPriority),
			"   random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 20") +
			"\n! on platforms with unicast queues use uc-tx-queue instead of tx-queue"
	case "SW-CNP-QUEUE":
		return intf(fmt.Sprintf("tx-queue %d", r.CNPPriority), "   priority strict") +
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
