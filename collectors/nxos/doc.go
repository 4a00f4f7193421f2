// Package nxos collects the lossless-RoCE state of Cisco Nexus 9000 switches (NX-OS).
//
// Structured output (`| json`) is used for show version, show interface and show lldp
// neighbors detail; the QoS configuration (class maps, qos / queuing / network-qos policies,
// system qos, per-interface PFC mode and watchdog) is read from `show running-config ipqos`.
//
// JSON quirks handled: a `ROW_*` member is an object when there is one row and an array when
// there are several; numbers come as strings on recent releases (`"eth_mtu": "9216"`) and as
// JSON numbers on older ones; the NX-API envelope `{"output": {"body": ...}}` may or may not
// wrap the body; LLDP prints short names (Eth1/9) that are expanded to Ethernet1/9.
//
// Conventions the checks rely on:
//
//   - A fact that could not be read is Unknown with Evidence.Error naming the command and why.
//   - A fact the platform cannot express at all would be topology.Unsupported (checks turn it
//     into skip). NX-OS expresses every SW-* setting, so this package never emits one.
//   - Defaults are reported as topology.Inferred with a reason saying what was assumed, so a
//     check that would pass on one warns instead:
//     `priority-flow-control mode` defaults to auto (PFC negotiated by DCBX), no qos input
//     policy means every packet goes to qos-group 0 (trust none), no network-qos policy pauses
//     nothing, no queuing policy marks no ECN, and an absent `priority-flow-control
//     watch-dog-interval` is reported as watchdog off.
//
// Speed: `show interface | json` eth_speed ("100 Gb/s", "1000 Mb/s") in Gb/s. A port that is
// down prints "auto-speed" and its speed is Unknown (eth_bw then only holds the port type's
// default). eth_bw (Kbit/s, the configurable `bandwidth`) is read only when eth_speed is absent
// and the port is up.
//
// PFC mode: `on` forces PFC on the pfc-cos priorities of the active network-qos policy and
// is static; `auto` applies them only when DCBX agrees with the peer and is reported as DCBX
// ("dcbx" mode, SwitchPFC.Mode "auto"); `off` disables PFC. MTU is the frame MTU as NX-OS
// configures it (9216 class), so Normalized equals Configured.
//
// Port-channel members (`channel-group N`, else eth_bundle of `show interface`) take from
// `interface port-channelN` each QoS/PFC setting they leave unset; their own lines win
// (QoSConfig.ForPort).
package nxos
