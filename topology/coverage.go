package topology

import (
	"fmt"
	"slices"
	"strings"
)

// Coverage is which equal-cost members of a transfer's path set carried test traffic, told
// by the traffic counters (bytes, else packets) of the ports that set each member apart.
type Coverage struct {
	AllPaths bool `json:"all_paths"` // --all-paths stepped flow labels
	// Attempts are the runs made, in order; Bound says what stopped the stepping when some
	// member was never reached ("64 attempts", "time budget 10m0s").
	Attempts []CoverageAttempt `json:"attempts"`
	Members  []MemberCoverage  `json:"members"`
	Bound    string            `json:"bound,omitempty"`
	// Error says why no member could be told (no traffic counter on the ports that differ).
	Error string `json:"error,omitempty"`
}

// CoverageAttempt is one run: its flow label and the members its counters show carried it.
type CoverageAttempt struct {
	FlowLabel int    `json:"flow_label"`
	Members   []int  `json:"members"` // indexes into Coverage.Members (= Transfer.Paths)
	Ran       bool   `json:"ran"`
	Error     string `json:"error,omitempty"`
}

// MemberCoverage is one member: the ports that set it apart and whether a test reached it.
type MemberCoverage struct {
	Path    int      `json:"path"` // 1-based, as results name it
	Via     string   `json:"via"`
	Ports   []string `json:"ports"` // "leaf1:Ethernet48 out"
	Carried bool     `json:"carried"`
	// Volume is the largest traffic delta its ports counted in the attempt that reached it.
	Volume int64  `json:"volume,omitempty"`
	Unit   string `json:"unit,omitempty"` // bytes | packets
}

// Name is how results name a member: "path 2 via spine1".
func (m MemberCoverage) Name() string { return fmt.Sprintf("path %d via %s", m.Path, m.Via) }

// senderTraffic is the sending NIC's counter (mlx5 ethtool -S) of each traffic unit.
var senderTraffic = map[string]string{"bytes": "tx_bytes_phy", "packets": "tx_packets_phy"}

// trafficNames are the normalized traffic counters of a port, per direction, bytes first.
var trafficNames = map[string][2]string{"in": {"rx_bytes", "rx_packets"}, "out": {"tx_bytes", "tx_packets"}}

// IsTrafficCounter says whether a counter is a port's normalized byte or packet count; the
// transfer keeps them even when they did not move, so a member that carried nothing is told
// apart from one whose counters were not read.
func IsTrafficCounter(name string) bool {
	switch name {
	case "rx_bytes", "tx_bytes", "rx_packets", "tx_packets":
		return true
	}
	return false
}

type memberPort struct{ dev, port, dir string }

func (p memberPort) String() string { return p.dev + ":" + p.port + " " + p.dir }

// NewCoverage lists the members of paths with the ports that set each apart (a port every
// member crosses in the same direction tells nothing) and the switches only it crosses.
func NewCoverage(paths [][]Hop, allPaths bool) *Coverage {
	c := &Coverage{AllPaths: allPaths}
	count := map[memberPort]int{}
	devs := map[string]int{}
	for _, hops := range paths {
		seen := map[string]bool{}
		for _, p := range portsOf(hops) {
			count[p]++
		}
		for _, h := range hops {
			if !seen[h.Device] {
				seen[h.Device] = true
				devs[h.Device]++
			}
		}
	}
	for i, hops := range paths {
		m := MemberCoverage{Path: i + 1}
		var via []string
		for _, h := range hops {
			if devs[h.Device] < len(paths) && !slices.Contains(via, h.Device) {
				via = append(via, h.Device)
			}
		}
		for _, p := range portsOf(hops) {
			if count[p] < len(paths) {
				m.Ports = append(m.Ports, p.String())
			}
		}
		m.Via = strings.Join(via, ", ")
		if m.Via == "" {
			m.Via = strings.Join(m.Ports, ", ")
		}
		if m.Via == "" { // the only member: name it by every device it crosses
			var all []string
			for _, h := range hops {
				if !slices.Contains(all, h.Device) {
					all = append(all, h.Device)
				}
			}
			m.Via = strings.Join(all, ", ")
		}
		c.Members = append(c.Members, m)
	}
	return c
}

func portsOf(hops []Hop) []memberPort {
	var out []memberPort
	for _, h := range hops {
		if h.InPort != "" {
			out = append(out, memberPort{h.Device, h.InPort, "in"})
		}
		if h.OutPort != "" {
			out = append(out, memberPort{h.Device, h.OutPort, "out"})
		}
	}
	return out
}

// Attribute reads one attempt's counter deltas: the members whose distinguishing ports
// carried at least half of the reference volume (the sender's own transmitted bytes or
// packets, else the largest member's), scored by the share of their ports that did; only the
// best-scoring members count. It fails when no distinguishing port has a traffic counter.
// Attribution assumes the test dominates those ports while it runs (a quiet fabric).
func (c *Coverage) Attribute(paths [][]Hop, x Transfer) ([]int, error) {
	if len(paths) <= 1 { // the only member carries whatever ran
		if len(c.Members) == 1 {
			c.Members[0].Carried = true
		}
		return []int{0}, nil
	}
	delta := map[string]map[string]int64{}
	for _, h := range x.Hops {
		delta[h.Device+":"+NormalizePort(h.Interface)] = h.CounterDeltas
	}
	sender := delta[x.From.Device+":"+NormalizePort(x.From.Interface)]
	volume := func(dev, port, dir string) (int64, string, bool) {
		d := delta[dev+":"+NormalizePort(port)]
		for i, n := range trafficNames[dir] {
			if v, ok := d[n]; ok {
				return v, []string{"bytes", "packets"}[i], true
			}
		}
		return 0, "", false
	}
	// Each member port's traffic is read once; the threshold needs the largest of them all.
	type reading struct {
		v    int64
		unit string
	}
	readings := make([][]reading, len(c.Members))
	var best int64
	for i, m := range c.Members {
		for _, ps := range m.Ports {
			ref, dir, _ := strings.Cut(ps, " ")
			dev, port, _ := strings.Cut(ref, ":")
			if v, unit, ok := volume(dev, port, dir); ok {
				readings[i] = append(readings[i], reading{v, unit})
				best = max(best, v)
			}
		}
	}
	if !slices.ContainsFunc(readings, func(r []reading) bool { return len(r) > 0 }) {
		return nil, fmt.Errorf("no traffic counter (bytes or packets) was read on the ports that tell the %d members apart", len(paths))
	}
	// The threshold: half of what the sender sent in the unit the member ports count in.
	threshold := func(unit string) int64 {
		if v, ok := sender[senderTraffic[unit]]; ok && v > 0 {
			return v / 2
		}
		return best / 2
	}
	frac := make([]float64, len(paths))
	peak := make([]reading, len(paths)) // the largest delta of each member's ports
	top := 0.0
	for i, rs := range readings {
		moved := 0
		for _, r := range rs {
			if t := threshold(r.unit); t > 0 && r.v >= t {
				moved++
			}
			if r.v > peak[i].v {
				peak[i] = r
			}
		}
		if len(rs) > 0 {
			frac[i] = float64(moved) / float64(len(rs))
		}
		top = max(top, frac[i])
	}
	var out []int // ascending: frac is walked by index
	for i := range frac {
		if top > 0 && frac[i] == top {
			out = append(out, i)
		}
	}
	for _, i := range out {
		if !c.Members[i].Carried {
			c.Members[i].Carried, c.Members[i].Volume, c.Members[i].Unit = true, peak[i].v, peak[i].unit
		}
	}
	return out, nil
}

// Missing lists the members no attempt reached.
func (c *Coverage) Missing() []MemberCoverage {
	var out []MemberCoverage
	for _, m := range c.Members {
		if !m.Carried {
			out = append(out, m)
		}
	}
	return out
}
