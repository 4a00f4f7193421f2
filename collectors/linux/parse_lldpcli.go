package linux

import (
	"errors"
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// lldpJSON0 is `lldpcli -f json0 show neighbors`: every element is a list, every leaf value
// an object {"value": ...}. lldpd's writer builds this tree from the display tags
// (src/client/display.c display_interface, display_chassis, display_port) and json_writer.c
// prints it without the clean-up that `-f json` applies (lldpd/lldpd#236).
type lldpJSON0 struct {
	LLDP *[]lldpAgent `json:"lldp"`
}

type lldpAgent struct {
	Interface []lldpInterface `json:"interface"`
}

type lldpInterface struct {
	Name    string        `json:"name"`
	Chassis []lldpChassis `json:"chassis"`
	Port    []lldpPort    `json:"port"`
}

type lldpChassis struct {
	ID     []lldpTyped `json:"id"`
	Name   []lldpValue `json:"name"`
	MgmtIP []lldpValue `json:"mgmt-ip"`
}

type lldpPort struct {
	ID    []lldpTyped `json:"id"`
	Descr []lldpValue `json:"descr"`
}

type lldpValue struct {
	Value string `json:"value"`
}

type lldpTyped struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// errNotJSON0 is output that is not lldpcli's JSON at all: an lldpcli without the json0
// format prints its plain text instead (after "unknown output format").
var errNotJSON0 = errors.New("lldpcli printed no JSON (an lldpd older than 1.0 has no -f json0 and falls back to plain text)")

// ParseLLDPNeighbors reads `lldpcli -f json0 show neighbors` into one neighbour per
// interface entry (lldpd lists an interface once per neighbour). The output of an lldpcli
// that could not reach lldpd is the empty document {"lldp": [{}]}: no neighbour.
func ParseLLDPNeighbors(text string) ([]topology.LLDPNeighbor, error) {
	if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return nil, errNotJSON0
	}
	doc, err := decodeLLDPJSON0(text)
	if err != nil {
		return nil, fmt.Errorf("lldpcli json0: %w", err)
	}
	if doc.LLDP == nil {
		return nil, errors.New(`lldpcli json0: no "lldp" list`)
	}
	out := []topology.LLDPNeighbor{}
	for _, l := range *doc.LLDP {
		for _, iface := range l.Interface {
			if iface.Name == "" {
				return nil, errors.New("lldpcli json0: an interface entry without a name")
			}
			n := topology.LLDPNeighbor{LocalPort: iface.Name}
			for _, c := range iface.Chassis {
				n.ChassisID = firstTyped(c.ID)
				n.SystemName = firstValue(c.Name)
				n.MgmtAddress = firstValue(c.MgmtIP)
			}
			for _, p := range iface.Port {
				n.PortID = firstTyped(p.ID)
				n.PortDescr = firstValue(p.Descr)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

func firstValue(vs []lldpValue) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0].Value
}

func firstTyped(vs []lldpTyped) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0].Value
}
