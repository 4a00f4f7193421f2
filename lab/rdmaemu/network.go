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

// fiveTuple is what a switch hashes a RoCE v2 packet on: source and destination address
// (the lab's host netdevs each own one RoCE address, so the endpoints stand for them), UDP,
// the source port the NIC derived from the flow label, and destination port 4791.
type fiveTuple struct {
	src, dst Endpoint
	sport    uint16
}

// roceUDPPort is the RoCE v2 UDP destination port (IANA).
const roceUDPPort = 4791

// hash is one switch's ECMP hash of the tuple. Each switch folds in its own name (a per-switch
// seed, as NOSes do against polarization); one that hashes on addresses only (ipOnly) ignores
// the UDP ports, so every flow label of a pair takes the same next hop there.
func (t fiveTuple) hash(sw string, ipOnly bool) uint32 {
	h := fnv.New32a()
	if ipOnly {
		fmt.Fprintf(h, "%s|%s>%s", sw, t.src, t.dst)
	} else {
		fmt.Fprintf(h, "%s|%s>%s/17/%d/%d", sw, t.src, t.dst, t.sport, roceUDPPort)
	}
	return h.Sum32()
}

// pick is the ECMP choice hop by hop: at each switch of the walk, among the distinct next
// ports the remaining members leave by (sorted), the switch's hash of the tuple picks one, and
// only the members through it stay. ipOnly says which switches ignore the UDP ports.
func pick(members [][]Hop, t fiveTuple, ipOnly func(sw string) bool) []Hop {
	for depth := 0; len(members) > 1; depth++ {
		var outs []string
		seen := map[string]bool{}
		for _, m := range members {
			if depth < len(m) && !seen[m[depth].Out] {
				seen[m[depth].Out] = true
				outs = append(outs, m[depth].Out)
			}
		}
		if len(outs) == 0 {
			break
		}
		sort.Strings(outs)
		sw := members[0][depth].Device
		chosen := outs[t.hash(sw, ipOnly(sw))%uint32(len(outs))]
		var keep [][]Hop
		for _, m := range members {
			if depth < len(m) && m[depth].Out == chosen {
				keep = append(keep, m)
			}
		}
		members = keep
	}
	return members[0]
}

// The RoCE v2 UDP source port of a QP (Linux include/rdma/ib_verbs.h, used by mlx5, hns, rxe):
// the GRH flow label folded to 14 bits over 0xC000 (rdma_flow_label_to_udp_sport); with no
// flow label set, mlx5 first derives one from the two QP numbers (rdma_calc_flow_label in
// drivers/infiniband/hw/mlx5/qp.c).
func flowSport(fl uint32, lqpn, rqpn uint64) uint16 {
	if fl == 0 {
		v := lqpn * rqpn
		v ^= v >> 20
		v ^= v >> 40
		fl = uint32(v & 0xFFFFF)
	}
	fl &= 0xFFFFF
	low, high := fl&0x3FFF, fl&0xFC000
	low ^= high >> 14
	return uint16(low | 0xC000)
}
