package eos

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net"
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
func model(sw *switchstate.Switch) string   { return cmp.Or(sw.Model, DefaultModel) }
func version(sw *switchstate.Switch) string { return cmp.Or(sw.Version, DefaultVersion) }

// defaultMAC is the chassis MAC of a state without one (sw.BaseMAC); ports get consecutive
// addresses after the chassis MAC (sw.PortMAC).
var defaultMAC = net.HardwareAddr{0x44, 0x4c, 0xa8, 0x00, 0x00, 0x00}

// shortName is the table spelling of an interface ("Ethernet1/1" -> "Et1/1").
func shortName(name string) string {
	for long, short := range map[string]string{"Ethernet": "Et", "Management": "Ma"} {
		if rest, ok := strings.CutPrefix(name, long); ok {
			return short + rest
		}
	}
	return name
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
	return p.Neighbor.SystemName + "_" + p.Neighbor.PortName()
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
