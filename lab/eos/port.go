package eos

import (
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strings"

	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Times in the JSON models are fixed, so renders are reproducible: the switch booted at
// bootTime and its links came up a little later.
const (
	bootTime       = 1700561432.261347
	linkChangeTime = 1700561511.4151127
)

// model and version are the state's, or the defaults.
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

// baseMAC is the chassis MAC; ports get consecutive addresses after it.
func baseMAC(sw *switchstate.Switch) net.HardwareAddr {
	if m, err := net.ParseMAC(sw.MAC); err == nil && len(m) == 6 {
		return m
	}
	return net.HardwareAddr{0x44, 0x4c, 0xa8, 0x00, 0x00, 0x00}
}

// portMAC is the burned-in address of the i-th front-panel port (0-based).
func portMAC(sw *switchstate.Switch, i int) net.HardwareAddr {
	m := append(net.HardwareAddr(nil), baseMAC(sw)...)
	n := int(m[4])<<8 | int(m[5])
	n += i + 1
	m[4], m[5] = byte(n>>8), byte(n)
	return m
}

// dottedMAC is EOS's spelling of a MAC in LLDP ("0c42.a1b2.c3d0"); anything that is not a MAC
// is shown as given.
func dottedMAC(s string) string {
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		return s
	}
	return fmt.Sprintf("%02x%02x.%02x%02x.%02x%02x", m[0], m[1], m[2], m[3], m[4], m[5])
}

// shortName is the table spelling of an interface ("Ethernet1/1" -> "Et1/1").
func shortName(name string) string {
	for long, short := range map[string]string{"Ethernet": "Et", "Management": "Ma"} {
		if rest, ok := strings.CutPrefix(name, long); ok {
			return short + rest
		}
	}
	return name
}

// pfcPriorities are the port's no-drop priorities: EOS enables PFC per priority for both
// directions, so receive and transmit are merged.
func pfcPriorities(p *switchstate.Port) []int {
	var out []int
	for prio := 0; prio < 8; prio++ {
		if p.PFCRX[prio] || p.PFCTX[prio] {
			out = append(out, prio)
		}
	}
	return out
}

// watchdog is the port's watchdog switch: EOS has one per port, covering every no-drop
// priority.
func watchdog(p *switchstate.Port) bool {
	for _, on := range p.Watchdog {
		if on {
			return true
		}
	}
	return false
}

// roundRobinFrom is the tx-queue that gets `no priority`, which makes it and every lower
// queue round-robin; EOS queues are otherwise strict from the top. It is the queue just
// below the state's lowest strict queue (7 when no queue is strict, -1 when all are).
func roundRobinFrom(p *switchstate.Port) int {
	for q := 0; q < 8; q++ {
		if p.Strict[q] {
			return q - 1
		}
	}
	return 7
}

// counter reads a state counter; absent reads 0.
func counter(p *switchstate.Port, name string) int64 { return p.Counters[name] }

// pfcFrames sums the per-priority PFC counters of one direction ("rx" or "tx"); EOS counts
// PFC frames per interface only.
func pfcFrames(p *switchstate.Port, dir string) int64 {
	var n int64
	for prio := 0; prio < 8; prio++ {
		n += counter(p, fmt.Sprintf("pfc_%s_pause_prio%d", dir, prio))
	}
	return n
}

// neighborLabel is the interface description the fabric's cabling plan gives a port.
func neighborLabel(p *switchstate.Port) string {
	if p.Neighbor == nil {
		return ""
	}
	return p.Neighbor.SystemName + "_" + p.Neighbor.PortID
}

// sortedPorts is the ports in EOS order (Ethernet2 before Ethernet10).
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

// jsonOut prints a value as EOS prints `| json`: indented by four spaces.
func jsonOut(v any) string {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		// Every value here is built from plain structs and maps.
		panic(fmt.Sprintf("eos: render JSON: %v", err))
	}
	return string(b) + "\n"
}
