// Package eos collects the lossless-RoCE state of Arista EOS switches.
//
// Every command is a read-only `show`; structured output (`| json`) is used where its shape is
// known from real devices (show version, show interfaces, show lldp neighbors detail, show
// priority-flow-control counters), and the QoS configuration is read from `show running-config`,
// whose syntax is well documented, because the JSON of the EOS QoS show commands is not.
//
// Conventions the checks rely on:
//
//   - A fact that could not be read is Unknown with Evidence.Error naming the command and why.
//   - A fact that EOS cannot express at all would be topology.Unsupported (checks turn it
//     into skip). EOS can express every SW-* setting, so this package never emits one; the
//     sonic and cumulus packages do.
//   - Defaults are facts too, but marked: when the configuration is silent and the value is an
//     assumed EOS default, the fact is topology.Inferred with a reason saying what was assumed,
//     so a check that would pass on it warns instead. That covers
//     the DSCP map when no `qos map dscp` line exists (the default map is third-party knowledge,
//     UNVERIFIED), the traffic-class to tx-queue map without `qos map traffic-class`, trust
//     without `qos trust` (the port-mode default), the scheduler when no tx-queue states
//     `priority strict` or `no priority`, and the watchdog when it is never configured. A map
//     that is partly configured is not marked (the fact cannot say which entries the checks
//     use); it is Known, its excerpt quoting the lines and naming the rest as default. Not marked: DCBX off
//     (Arista documents "DCBX is off by default" in the EOS manual, and the running-config never
//     shows it) and the lossless buffer, which EOS ties to the configured no-drop priorities.
//
// Speed: `show interfaces | json` "bandwidth" (bit/s) in Gb/s. A port that is not connected
// shows 0 there; its speed is Unknown, never 0.
//
// MTU normalization: EOS `mtu` is the IP MTU (maximum 9214). The frame it admits is the IP MTU
// plus 18 bytes (Ethernet header and FCS) or 22 with an 802.1Q tag, so 9214 gives 9232/9236,
// the largest frame any of the four NOSes configures: that is the "9216 class" (NX-OS, SONiC
// and Cumulus top out at mtu 9216). NormalizeMTU maps an IP MTU of 9214 or more to 9216 and
// leaves smaller values as they are, since every NOS's default (1500) is the same IP payload.
//
// Port-channel members (`channel-group N`) take from `interface Port-ChannelN` each QoS/PFC
// setting they leave unset; their own lines and service-profile win (EffectiveQoS).
package eos
