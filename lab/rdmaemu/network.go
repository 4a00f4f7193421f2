package rdmaemu

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
)

// Endpoint is one end of a cable: a device and its port (a host netdev or a switch port).
type Endpoint struct{ Device, Port string }

func (e Endpoint) String() string { return e.Device + ":" + e.Port }

// Cable joins two endpoints.
type Cable [2]Endpoint

// Hop is one switch a flow crosses: the port it enters by and the port it leaves by.
type Hop struct{ Device, In, Out string }

// maxMembers bounds the equal-cost paths enumerated between two leaves (a generated Clos can
// have many); the hash picks among the first maxMembers in sorted order.
const maxMembers = 4096

// network is the lab's cabling, immutable after New.
type network struct {
	peer     map[Endpoint]Endpoint
	switches map[string]bool
	// links lists, per switch, its cables to other switches (local port, remote end).
	links map[string][]swLink
}

type swLink struct {
	local  string
	remote Endpoint
}

func newNetwork(cables []Cable, switches map[string]bool) (*network, error) {
	n := &network{peer: map[Endpoint]Endpoint{}, switches: switches, links: map[string][]swLink{}}
	for _, c := range cables {
		for i := range 2 {
			if other, dup := n.peer[c[i]]; dup {
				return nil, fmt.Errorf("rdmaemu: %s is cabled twice (to %s and %s)", c[i], other, c[1-i])
			}
			n.peer[c[i]] = c[1-i]
		}
		if switches[c[0].Device] && switches[c[1].Device] {
			n.links[c[0].Device] = append(n.links[c[0].Device], swLink{c[0].Port, c[1]})
			n.links[c[1].Device] = append(n.links[c[1].Device], swLink{c[1].Port, c[0]})
		}
	}
	return n, nil
}

// members lists every equal-cost (fewest switches) path from host port src to host port dst,
// sorted by their hops. A direct cable, or src == dst, is one member with no hops; no member
// at all means the two are not connected.
func (n *network) members(src, dst Endpoint) [][]Hop {
	if src == dst {
		return [][]Hop{nil}
	}
	first, ok := n.peer[src]
	if !ok {
		return nil
	}
	if first == dst {
		return [][]Hop{nil}
	}
	last, ok := n.peer[dst]
	if !ok || !n.switches[first.Device] || !n.switches[last.Device] {
		return nil
	}
	// Distances to the last switch, so the walk from the first one only takes shortest steps.
	dist := map[string]int{last.Device: 0}
	queue := []string{last.Device}
	for len(queue) > 0 {
		sw := queue[0]
		queue = queue[1:]
		for _, l := range n.links[sw] {
			if _, seen := dist[l.remote.Device]; !seen {
				dist[l.remote.Device] = dist[sw] + 1
				queue = append(queue, l.remote.Device)
			}
		}
	}
	if _, ok := dist[first.Device]; !ok {
		return nil
	}
	var out [][]Hop
	var walk func(sw, in string, path []Hop)
	walk = func(sw, in string, path []Hop) {
		if len(out) >= maxMembers {
			return
		}
		if sw == last.Device {
			out = append(out, append(append([]Hop(nil), path...), Hop{sw, in, last.Port}))
			return
		}
		for _, l := range n.links[sw] {
			if d, ok := dist[l.remote.Device]; ok && d == dist[sw]-1 {
				walk(l.remote.Device, l.remote.Port, append(path, Hop{sw, in, l.local}))
			}
		}
	}
	walk(first.Device, first.Port, nil)
	sort.Slice(out, func(i, j int) bool { return hopsKey(out[i]) < hopsKey(out[j]) })
	return out
}

func hopsKey(hops []Hop) string {
	parts := make([]string, len(hops))
	for i, h := range hops {
		parts[i] = h.Device + ":" + h.In + ">" + h.Out
	}
	return strings.Join(parts, " ")
}

// pick is the ECMP choice: FNV-1a of "client>server/tcpPort" modulo the number of members.
// It stands for the switches' 5-tuple hash (RoCE v2 varies the UDP source port per QP): the
// same pair on the same perftest port always takes the same member, another port may not.
func pick(members [][]Hop, client, server Endpoint, tcpPort int) []Hop {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s>%s/%d", client, server, tcpPort)
	return members[h.Sum32()%uint32(len(members))]
}
