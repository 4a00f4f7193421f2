package eos

import (
	"encoding/json"
	"fmt"
)

// CmdInterfaces reads speed, MTU, forwarding model, 802.3x pause counters and the ports'
// traffic counters.
const CmdInterfaces = "show interfaces | json"

// Interface is one entry of `show interfaces | json`.
type Interface struct {
	Name string
	// MTU is the IP MTU (EOS semantics, see NormalizeMTU).
	MTU int
	// ForwardingModel is "bridged" (switchport) or "routed".
	ForwardingModel string
	// Bandwidth is the port speed in bit/s; 0 when EOS gives none (it shows 0 on a port that
	// is not connected). Status is interfaceStatus ("connected", "notconnect", ...).
	Bandwidth       float64
	Status          string
	RxPause         int64
	TxPause         int64
	HasPauseCounter bool
	// Traffic holds interfaceCounters' inOctets/outOctets/inUcastPkts/outUcastPkts under
	// the normalized names rx_bytes/tx_bytes/rx_packets/tx_packets, those present.
	Traffic map[string]int64
}

// trafficKeys map EOS's interfaceCounters traffic keys to the normalized counter names.
var trafficKeys = []struct{ eos, name string }{
	{"inOctets", "rx_bytes"}, {"outOctets", "tx_bytes"}, {"inUcastPkts", "rx_packets"}, {"outUcastPkts", "tx_packets"},
}

// interfacesJSON is what ParseInterfaces reads of `show interfaces | json`.
type interfacesJSON struct {
	Interfaces map[string]interfaceJSON `json:"interfaces"`
}

type interfaceJSON struct {
	MTU             *int          `json:"mtu"`
	ForwardingModel string        `json:"forwardingModel"`
	Bandwidth       *float64      `json:"bandwidth"`
	Status          string        `json:"interfaceStatus"`
	Counters        *countersJSON `json:"interfaceCounters"`
}

type countersJSON struct {
	InOctets     *int64 `json:"inOctets"`
	OutOctets    *int64 `json:"outOctets"`
	InUcastPkts  *int64 `json:"inUcastPkts"`
	OutUcastPkts *int64 `json:"outUcastPkts"`
	In           *struct {
		RxPause *int64 `json:"rxPause"`
	} `json:"inputErrorsDetail"`
	Out *struct {
		TxPause *int64 `json:"txPause"`
	} `json:"outputErrorsDetail"`
}

// ParseInterfaces parses `show interfaces | json`, keyed by interface name. Only front-panel
// Ethernet ports are kept.
func ParseInterfaces(out string) (map[string]Interface, error) {
	if err := descriptor.Refused(out); err != nil {
		return nil, fmt.Errorf("%s: %w", CmdInterfaces, err)
	}
	raw, ok := scanInterfaces(out)
	if !ok {
		raw = interfacesJSON{}
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			return nil, fmt.Errorf("%s: not JSON: %w", CmdInterfaces, err)
		}
	}
	if raw.Interfaces == nil {
		return nil, fmt.Errorf("%s: no \"interfaces\" object in the output", CmdInterfaces)
	}
	res := map[string]Interface{}
	for name, r := range raw.Interfaces {
		if !IsFrontPanel(name) {
			continue
		}
		if r.MTU == nil {
			return nil, fmt.Errorf("%s: %s has no \"mtu\"", CmdInterfaces, name)
		}
		switch r.ForwardingModel {
		case "bridged", "routed", "dataLink", "quietDataLink", "layer1Patch", "unknown", "":
		default:
			return nil, fmt.Errorf("%s: %s has an unexpected forwardingModel %q", CmdInterfaces, name, r.ForwardingModel)
		}
		it := Interface{Name: name, MTU: *r.MTU, ForwardingModel: r.ForwardingModel, Status: r.Status}
		if r.Bandwidth != nil && *r.Bandwidth > 0 {
			it.Bandwidth = *r.Bandwidth
		}
		if c := r.Counters; c != nil && c.In != nil && c.Out != nil && c.In.RxPause != nil && c.Out.TxPause != nil {
			it.RxPause, it.TxPause, it.HasPauseCounter = *c.In.RxPause, *c.Out.TxPause, true
		}
		if c := r.Counters; c != nil {
			for i, v := range []*int64{c.InOctets, c.OutOctets, c.InUcastPkts, c.OutUcastPkts} {
				if v != nil {
					if it.Traffic == nil {
						it.Traffic = map[string]int64{}
					}
					it.Traffic[trafficKeys[i].name] = *v
				}
			}
		}
		res[name] = it
	}
	return res, nil
}
