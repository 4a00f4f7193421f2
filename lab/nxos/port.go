package nxos

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func model(sw *switchstate.Switch) string   { return cmp.Or(sw.Model, DefaultModel) }
func version(sw *switchstate.Switch) string { return cmp.Or(sw.Version, DefaultVersion) }

// chassis is how `show version` names the box ("N9K-C9336C-FX2" -> "Nexus9000 C9336C-FX2
// Chassis").
func chassis(sw *switchstate.Switch) string {
	return "Nexus9000 " + strings.TrimPrefix(model(sw), "N9K-") + " Chassis"
}

// defaultMAC is the chassis MAC of a state without one (sw.BaseMAC); ports get consecutive
// addresses after the chassis MAC (sw.PortMAC).
var defaultMAC = net.HardwareAddr{0x50, 0x87, 0x89, 0x00, 0x00, 0x00}

// shortName is the LLDP spelling of an interface ("Ethernet1/1" -> "Eth1/1").
func shortName(name string) string {
	if rest, ok := strings.CutPrefix(name, "Ethernet"); ok {
		return "Eth" + rest
	}
	return name
}

// pfcMode is the port's `priority-flow-control mode`: auto when the port runs DCBX, off
// without a no-drop priority, on otherwise.
func pfcMode(p *switchstate.Port) string {
	switch {
	case p.PFCAuto || p.DCBX:
		return "auto"
	case len(p.PFCPriorities()) == 0:
		return "off"
	}
	return "on"
}

func counter(p *switchstate.Port, name string) int64 { return p.Counters[name] }

// neighborLabel is the interface description the fabric's cabling plan gives a port.
func neighborLabel(p *switchstate.Port) string {
	if p.Neighbor == nil {
		return ""
	}
	return p.Neighbor.SystemName + "_" + p.Neighbor.PortName()
}

// rows is a ROW_* member as NX-OS prints it: an object for one row, an array for several.
func rows[T any](rs []T) any {
	if len(rs) == 1 {
		return rs[0]
	}
	return rs
}

// jsonOut prints a value as NX-OS prints `| json`: on one line.
func jsonOut(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every value here is built from plain structs and slices.
		panic(fmt.Sprintf("nxos: render JSON: %v", err))
	}
	return b.String()
}
