// Package remedy is what a platform's remediation is asked: one failing check on one port of
// one device, with that port's collected facts, so the fix names what the device really has
// (the QoS tool, the RDMA device, the DSCP map it binds, the class CNPs land in). The check
// engine fills an Input; each platform package answers it in its own language.
package remedy

import (
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Input is one remediation request.
type Input struct {
	CheckID string
	// Port is the port's name as the device spells it.
	Port string
	// Host is the host port's facts, for a host; Switch the switch port's, for a switch.
	// Either may be nil when the port was not collected.
	Host   *topology.HostPort
	Switch *topology.SwitchPort
	// PeerHost and PeerSwitch are the far end's facts, for a link check whose fix on one end
	// depends on the other (LINK-PFC-STORM: one side's timer against the other's).
	PeerHost   *topology.HostPort
	PeerSwitch *topology.SwitchPort
	// Transfer is the test transfer a transfer check judged; nil for other checks.
	Transfer *topology.Transfer
	// Recipe is the effective recipe.
	Recipe recipe.Recipe
}
