package reports

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// PortFacts are the lossless settings of one audited port as collected, in words: what path
// tables show per hop and what diff compares between two runs ("MTU 9216 -> 1500"). A value
// that could not be read is "?".
type PortFacts struct {
	Device    string `json:"device"`
	Interface string `json:"interface"`
	MTU       string `json:"mtu"`
	PFC       string `json:"pfc"` // lossless priorities, e.g. "3", "none"
	Trust     string `json:"trust"`
	DCBX      string `json:"dcbx"`
}

// factNames are the PortFacts fields in the order tables and diffs list them.
var factNames = []string{"MTU", "PFC", "trust", "DCBX"}

func (p PortFacts) values() []string { return []string{p.MTU, p.PFC, p.Trust, p.DCBX} }

// portFacts lists the facts of every port a result names, in device then port order.
func portFacts(snap *topology.Snapshot, want map[[2]string]bool) []PortFacts {
	var out []PortFacts
	for _, d := range snap.Devices {
		if d.Host != nil {
			for _, p := range d.Host.Ports {
				if want[[2]string{d.Name, p.Netdev}] {
					out = append(out, hostFacts(d.Name, p))
				}
			}
		}
		if d.Switch != nil {
			for _, p := range d.Switch.Ports {
				if want[[2]string{d.Name, p.Name}] {
					out = append(out, switchFacts(d.Name, p))
				}
			}
		}
	}
	return out
}

func hostFacts(dev string, p *topology.HostPort) PortFacts {
	f := PortFacts{Device: dev, Interface: p.Netdev, MTU: "?", PFC: "?", Trust: "?", DCBX: "?"}
	if p.Link.HasValue() {
		f.MTU = strconv.Itoa(p.Link.Value.MTU)
	}
	if p.QoS.HasValue() {
		var on []int
		for prio, en := range p.QoS.Value.PFC {
			if en {
				on = append(on, prio)
			}
		}
		f.PFC, f.Trust = prioText(on), p.QoS.Value.Trust
	}
	if p.DCBX.HasValue() {
		f.DCBX = p.DCBX.Value.Mode
	}
	return f
}

func switchFacts(dev string, p *topology.SwitchPort) PortFacts {
	f := PortFacts{Device: dev, Interface: p.Name, MTU: "?", PFC: "?", Trust: "?", DCBX: "?"}
	if p.MTU.HasValue() {
		f.MTU = strconv.Itoa(p.MTU.Value.Configured)
	}
	if p.PFC.HasValue() {
		f.PFC = prioText(p.PFC.Value.RX)
		if tx := prioText(p.PFC.Value.TX); tx != f.PFC {
			f.PFC = "rx " + f.PFC + ", tx " + tx
		}
	}
	if p.Trust.HasValue() {
		f.Trust = p.Trust.Value
	}
	if p.DCBX.HasValue() {
		f.DCBX = p.DCBX.Value.Mode
	}
	return f
}

func prioText(ps []int) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}

// factIndex finds a port's facts by device and interface.
func factIndex(ps []PortFacts) map[[2]string]PortFacts {
	m := make(map[[2]string]PortFacts, len(ps))
	for _, p := range ps {
		m[[2]string{p.Device, p.Interface}] = p
	}
	return m
}
