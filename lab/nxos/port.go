package nxos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

func model(sw *switchstate.Switch) string {
	if sw.Model != "" {
		return sw.Model
	}
	return DefaultModel
}

func version(sw *switchstate.Switch) string {
	if sw.Version != "" {
		return sw.Version
	}
	return DefaultVersion
}

// chassis is how `show version` names the box ("N9K-C9336C-FX2" -> "Nexus9000 C9336C-FX2
// Chassis").
func chassis(sw *switchstate.Switch) string {
	return "Nexus9000 " + strings.TrimPrefix(model(sw), "N9K-") + " Chassis"
}

// baseMAC is the chassis MAC; ports get consecutive addresses after it.
func baseMAC(sw *switchstate.Switch) net.HardwareAddr {
	if m, err := net.ParseMAC(sw.MAC); err == nil && len(m) == 6 {
		return m
	}
	return net.HardwareAddr{0x50, 0x87, 0x89, 0x00, 0x00, 0x00}
}

// portMAC is the address of the i-th front-panel port (0-based).
func portMAC(sw *switchstate.Switch, i int) net.HardwareAddr {
	m := append(net.HardwareAddr(nil), baseMAC(sw)...)
	n := (int(m[4])<<8 | int(m[5])) + i + 1
	m[4], m[5] = byte(n>>8), byte(n)
	return m
}

// dottedMAC is NX-OS's spelling of a MAC ("5087.89a1.d8d6"); anything that is not a MAC is
// shown as given.
func dottedMAC(s string) string {
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		return s
	}
	return fmt.Sprintf("%02x%02x.%02x%02x.%02x%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// shortName is the LLDP spelling of an interface ("Ethernet1/1" -> "Eth1/1").
func shortName(name string) string {
	if rest, ok := strings.CutPrefix(name, "Ethernet"); ok {
		return "Eth" + rest
	}
	return name
}

// pfcPriorities are the priorities the port pauses, receive and transmit together (NX-OS
// pauses the pfc-cos values both ways).
func pfcPriorities(p *switchstate.Port) []int {
	var out []int
	for prio := 0; prio < 8; prio++ {
		if p.PFCRX[prio] || p.PFCTX[prio] {
			out = append(out, prio)
		}
	}
	return out
}

// pfcMode is the port's `priority-flow-control mode`: auto when the port runs DCBX, off
// without a no-drop priority, on otherwise.
func pfcMode(p *switchstate.Port) string {
	switch {
	case p.PFCAuto || p.DCBX:
		return "auto"
	case len(pfcPriorities(p)) == 0:
		return "off"
	}
	return "on"
}

// watchdog is the port's watchdog switch: NX-OS has one per port, covering every no-drop
// queue.
func watchdog(p *switchstate.Port) bool {
	for _, on := range p.Watchdog {
		if on {
			return true
		}
	}
	return false
}

func counter(p *switchstate.Port, name string) int64 { return p.Counters[name] }

// neighborLabel is the interface description the fabric's cabling plan gives a port.
func neighborLabel(p *switchstate.Port) string {
	if p.Neighbor == nil {
		return ""
	}
	return p.Neighbor.SystemName + "_" + p.Neighbor.PortID
}

// majority is the value most ports have (the first port's on a tie), or def without ports.
func majority[T comparable](ports []*switchstate.Port, def T, get func(*switchstate.Port) T) T {
	count := map[T]int{}
	best, bestN := def, 0
	for _, p := range ports {
		v := get(p)
		count[v]++
		if count[v] > bestN {
			best, bestN = v, count[v]
		}
	}
	return best
}

// sortedPorts is the ports in NX-OS order (Ethernet1/2 before Ethernet1/10).
func sortedPorts(sw *switchstate.Switch) []*switchstate.Port {
	ps := append([]*switchstate.Port(nil), sw.Ports...)
	sort.SliceStable(ps, func(i, j int) bool { return naturalLess(ps[i].Name, ps[j].Name) })
	return ps
}

func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (int, string) {
	n, i := 0, 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n, s[i:]
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
