package nxos

import (
	"regexp"
	"strings"
)

// portChannelName matches a port-channel interface (not a subinterface) as the running
// configuration ("port-channel10") or eth_bundle ("10", "Po10") may name it.
var portChannelName = regexp.MustCompile(`^(?i:port-channel|po)?([0-9]+)$`)

// portChannelNumber is N of port-channelN; ok is false for any other interface name.
func portChannelNumber(name string) (string, bool) {
	if !strings.HasPrefix(strings.ToLower(name), "port-channel") {
		return "", false
	}
	m := portChannelName.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// ForPort is the ipqos configuration in force on a front-panel port: its own interface block,
// with each setting it does not make itself taken from the port-channel it belongs to. The
// port-channel is the port's own `channel-group N` line, else bundle (eth_bundle of
// `show interface`, "" when the port is in none), since `show running-config ipqos` need not
// print channel-group lines. The result is nil when the port has no block and no port-channel
// block applies.
//
// No public source says how NX-OS combines a member's settings with its
// port-channel's, so a member's own line always wins and the port-channel fills only the
// settings (qos input policy, queuing output policy, PFC mode, PFC watchdog) the member leaves
// unset. MTU is not read here: `show interface` reports the member's operational MTU.
func (c *QoSConfig) ForPort(name, bundle string) *InterfaceQoS {
	own := c.Interfaces[name]
	group := ""
	if m := portChannelName.FindStringSubmatch(strings.TrimSpace(bundle)); m != nil {
		group = m[1]
	}
	if own != nil && own.ChannelGroup != "" {
		group = own.ChannelGroup
	}
	pc := c.PortChannels[group]
	if pc == nil {
		return own
	}
	eff := InterfaceQoS{Name: name, ChannelGroup: group, Lines: []string{"interface " + name}}
	if own != nil {
		eff = *own
		eff.ChannelGroup = group
		eff.Lines = append([]string{}, own.Lines...)
	}
	inherited := false
	if eff.QoSInput == "" && pc.QoSInput != "" {
		eff.QoSInput, inherited = pc.QoSInput, true
	}
	if eff.QueuingOutput == "" && pc.QueuingOutput != "" {
		eff.QueuingOutput, inherited = pc.QueuingOutput, true
	}
	if eff.PFCMode == "" && pc.PFCMode != "" {
		eff.PFCMode, inherited = pc.PFCMode, true
	}
	if eff.Watchdog == nil && pc.Watchdog != nil {
		eff.Watchdog, inherited = pc.Watchdog, true
	}
	if !inherited {
		return own
	}
	// The evidence shows the port-channel block the inherited values came from.
	if own == nil || own.ChannelGroup == "" {
		eff.Lines = append(eff.Lines, blockIndent+"(member of port-channel"+group+" per show interface eth_bundle)")
	}
	eff.Lines = append(eff.Lines, pc.Lines...)
	return &eff
}
