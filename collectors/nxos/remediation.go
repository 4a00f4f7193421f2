package nxos

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the NX-OS configuration that makes port pass checkID under recipe r, or ""
// for a check this platform has no fix for. Policy names are suggestions; where the switch
// already has a policy attached, add the lines to that policy instead.
func Remediation(checkID, port string, _ *topology.SwitchPort, r recipe.Recipe) string {
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
end`, r.RoCEDSCP, r.CNPDSCP, r.RoCEPriority, r.CNPPriority, port)
	switch checkID {
	case "SW-MTU", "LINK-MTU", "PATH-MTU":
		return intf(fmt.Sprintf("mtu %d", r.SwitchMTU)) + "\n! the network-qos class of the RoCE qos-group needs the same mtu"
	case "SW-TRUST", "SW-DSCP-MAP":
		return classify
	case "SW-PFC", "LINK-PFC", "SW-BUFFER":
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
! remove pause pfc-cos from every other network-qos class`, r.RoCEPriority, r.SwitchMTU, r.RoCEPriority, r.SwitchMTU, port)
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
end`, r.RoCEPriority)
	case "SW-CNP-QUEUE":
		return fmt.Sprintf(`configure terminal
policy-map type queuing ROCE-OUT
  class type queuing c-out-8q-q%d
    priority level 1
system qos
  service-policy type queuing output ROCE-OUT
end`, r.CNPPriority)
	case "SW-DCBX", "PATH-DCBX-MIX":
		if r.DCBX == recipe.DCBXDynamic {
			return intf("priority-flow-control mode auto")
		}
		return intf("priority-flow-control mode on")
	}
	return ""
}
