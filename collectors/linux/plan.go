package linux

import (
	"slices"
	"strings"

	"github.com/roceaudit/roceaudit/collectors"
	"github.com/roceaudit/roceaudit/inventory"
	"github.com/roceaudit/roceaudit/topology"
)

// nicCommands are the per-port commands that read what each NIC holds for itself (DCB, pause,
// DCQCN, the pause-storm timeout): a RoCE LAG bond has none of it, so Collect sends them to its slave PFs instead.
var nicCommands = []string{CmdMlnxQos, CmdDcbApp, CmdDcbPFC, CmdDcbDCBX, CmdEthtoolPause, CmdECN, CmdPFCTunable}

// Plan lists what Collect may send to spec: discovery, then the per-port commands with {if}
// filled for each listed interface. {dev}/{port} (and {if} when no interface is listed) stay
// placeholders: they are only known after discovery. The dcb commands are sent only when
// mlnx_qos is missing or fails, pgrep only when systemctl cannot answer. A listed interface
// named as the bonding driver names bonds (bond0, bond1, ...) is planned as a RoCE LAG bond:
// the bond gets its counters and its RDMA device's commands, and the per-NIC commands (with
// ethtool -S) go to each slave PF, {slave}, which discovery finds.
func (Platform) Plan(spec inventory.DeviceSpec) []string {
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		if spec.Conn.Sudo {
			c = collectors.SudoPrefix + c
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range append(append([]string(nil), discoveryCommands...), fallbackCommands...) {
		add(c)
	}
	if len(spec.Interfaces) == 0 {
		for _, c := range portCommands {
			add(c)
		}
		return out
	}
	for _, ifname := range spec.Interfaces {
		if topology.ValidName(ifname) != nil {
			continue // never print, let alone send, an unsafe name
		}
		for _, c := range planPort(ifname) {
			add(c)
		}
	}
	return out
}

// planPort is the per-port commands for one listed interface, in the order Collect runs them.
func planPort(ifname string) []string {
	fill := func(c string) string { return strings.ReplaceAll(c, "{if}", ifname) }
	if !looksLikeBond(ifname) {
		out := make([]string, 0, len(portCommands))
		for _, c := range portCommands {
			out = append(out, fill(c))
		}
		return out
	}
	var bond, slave []string
	for _, c := range portCommands {
		if !slices.Contains(nicCommands, c) {
			bond = append(bond, fill(c))
		}
		if slices.Contains(nicCommands, c) || c == CmdEthtoolStats {
			slave = append(slave, strings.ReplaceAll(c, "{if}", "{slave}"))
		}
	}
	return append(bond, slave...)
}

// looksLikeBond is a name the Linux bonding driver gives a bond (bondN); a VLAN on it
// (bond0.100) is not one.
func looksLikeBond(ifname string) bool {
	n, ok := strings.CutPrefix(ifname, "bond")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}
