package eos

import "regexp"

// portChannel matches a Port-Channel interface, not a subinterface (Port-Channel10.100).
var portChannel = regexp.MustCompile(`^(?i:port-channel)([0-9]+)$`)

// portChannelNumber is N of Port-ChannelN; ok is false for any other interface name.
func portChannelNumber(name string) (string, bool) {
	m := portChannel.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// PortChannelOf is the Port-Channel block of the port-channel ic is a member of, nil when ic
// has no channel-group line or that port-channel has no block.
func (rc *RunningConfig) PortChannelOf(ic *InterfaceConfig) *InterfaceConfig {
	if ic == nil || ic.ChannelGroup == "" {
		return nil
	}
	return rc.PortChannels[ic.ChannelGroup]
}

// Routed reports whether ic is a routed port: `no switchport` on it, or on its port-channel
// (the members of a routed port-channel carry no switchport line of their own).
func (rc *RunningConfig) Routed(ic *InterfaceConfig) bool {
	if ic == nil {
		return false
	}
	pc := rc.PortChannelOf(ic)
	return ic.Routed || (pc != nil && pc.Routed)
}
