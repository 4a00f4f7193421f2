package nxos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/collectors/internal/example"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the NX-OS configuration that makes in.Port pass in.CheckID, or "" for a
// check this platform has no fix for. Policy names are suggestions; where the switch already
// has a policy attached, add the lines to that policy instead. Qos-groups and queues are the
// ones the port's facts show; CNPs keep the qos-group the switch already gives their DSCP.
func Remediation(in remedy.Input) string {
	r, port := in.Recipe, in.Port
	cnp, _ := in.CNPClass()
	intf := func(lines ...string) string {
		return "configure terminal\ninterface " + port + "\n  " + strings.Join(lines, "\n  ") + "\nend"
	}
	classify := fmt.Sprintf(`configure terminal
class-map type qos match-all ROCE
  match dscp %d
class-map type qos match-all CNP
  match dscp %d
policy-map type qos ROCE-IN
  class ROCE
    set qos-group %d
  class CNP
    set qos-group %d
interface %s
  service-policy type qos input ROCE-IN
end`, r.RoCEDSCP, r.CNPDSCP, in.RoCEClass(), cnp, port)
	switch in.CheckID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		return intf(fmt.Sprintf("mtu %d", r.SwitchMTU)) + "\n! the network-qos class of the RoCE qos-group needs the same mtu"
	case "SW-TRUST", "SW-DSCP-MAP":
		return classify
	case "SW-PFC", "LINK-PFC", "SW-BUFFER":
		if p := in.Switch; in.CheckID == "SW-PFC" && p != nil && p.PFC.Usable() && p.PFC.Value.Mode == "auto" && p.PFC.Value.Oper == "" {
			return intf("priority-flow-control mode on") +
				fmt.Sprintf("\n! makes PFC static; or read the negotiated state: show interface %s priority-flow-control", port)
		}
		return fmt.Sprintf(`configure terminal
policy-map type network-qos ROCE-NQ
  class type network-qos c-8q-nq%d
    mtu %d
    pause pfc-cos %d
  class type network-qos c-8q-nq-default
    mtu %d
system qos
  service-policy type network-qos ROCE-NQ
interface %s
  priority-flow-control mode on
end
! remove pause pfc-cos from every other network-qos class`, in.RoCEClass(), r.SwitchMTU, r.RoCEPriority, r.SwitchMTU, port)
	case "SW-PFC-WATCHDOG":
		return intf("priority-flow-control watch-dog-interval on")
	case "SW-PAUSE":
		return intf("flowcontrol receive off", "flowcontrol send off")
	case "SW-ECN":
		return fmt.Sprintf(`configure terminal
policy-map type queuing ROCE-OUT
  class type queuing c-out-8q-q%d
    bandwidth remaining percent 50
    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn
system qos
  service-policy type queuing output ROCE-OUT
end`, in.RoCEQueue())
	case "SW-CNP-QUEUE":
		return fmt.Sprintf(`configure terminal
policy-map type queuing ROCE-OUT
  class type queuing c-out-8q-q%d
    priority level 1
system qos
  service-policy type queuing output ROCE-OUT
end`, in.CNPQueue())
	case "SW-DCBX", "PATH-DCBX-MIX":
		if r.DCBX == recipe.DCBXDynamic {
			return intf("priority-flow-control mode auto")
		}
		return intf("priority-flow-control mode on")
	}
	return ""
}

// exampleSwitch is the facts explain shows the NX-OS fixes for: Cisco's AI/ML design numbering
// (CNPs in qos-group 7), RoCE classified into the default group, MTU 1500.
func exampleSwitch() *topology.SwitchPort {
	p := example.Switch("Ethernet1/1", topology.MTU{Configured: 1500, Kind: "frame", Normalized: 1500})
	p.DSCPToTC.Value[26], p.DSCPToTC.Value[48] = 0, 7
	return p
}
