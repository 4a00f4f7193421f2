package rdmaemu

import (
	"fmt"
	"math"
	"sort"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// counterSet is what one run adds to the counters, per port: ethtool -S and RDMA hw_counters
// on host netdevs, the NOS-agnostic switchstate names on switch ports (the names the switch
// emulators render: queue<q>_*, pg<g>_*, pfc_{rx,tx}_pause_*).
type counterSet struct {
	stats map[Endpoint]map[string]uint64 // host netdev: ethtool -S
	hw    map[Endpoint]map[string]uint64 // host netdev: hw_counters of the RDMA port bound to it
	sw    map[Endpoint]map[string]uint64 // switch port
}

func newCounterSet() *counterSet {
	return &counterSet{stats: map[Endpoint]map[string]uint64{}, hw: map[Endpoint]map[string]uint64{},
		sw: map[Endpoint]map[string]uint64{}}
}

func add(m map[Endpoint]map[string]uint64, at Endpoint, name string, v uint64) {
	if v == 0 {
		return
	}
	if m[at] == nil {
		m[at] = map[string]uint64{}
	}
	m[at][name] += v
}

func (c *counterSet) stat(at Endpoint, v uint64, format string, args ...any) {
	add(c.stats, at, fmt.Sprintf(format, args...), v)
}

func (c *counterSet) hwc(at Endpoint, name string, v uint64) { add(c.hw, at, name, v) }

func (c *counterSet) swc(at Endpoint, v uint64, format string, args ...any) {
	add(c.sw, at, fmt.Sprintf(format, args...), v)
}

// traffic is how much a run moved, in packets of one wire size.
type traffic struct {
	packets  uint64 // delivered to the receiver's QP
	wire     uint64 // bytes per packet on the wire
	messages uint64 // RDMA write requests
	seconds  float64
	// Only when a link of the flow is lossy:
	drops uint64 // frames lost in the fabric or the receiving NIC
}

// bwTraffic is the traffic of a write_bw run that reached avgGbps for seconds.
func bwTraffic(f *flow, size int, avgGbps, seconds float64, s seed) traffic {
	pktsPerMsg := uint64(math.Ceil(float64(size) / float64(f.mtu)))
	t := traffic{seconds: seconds, messages: uint64(avgGbps * 1e9 / 8 * seconds / float64(size))}
	t.packets = t.messages * pktsPerMsg
	t.wire = uint64(size)/pktsPerMsg + perPacketHeaders
	if f.lossy() {
		t.drops = max(1000, uint64(float64(t.packets)*(0.002+0.002*s.frac("droprate"))))
	}
	return t
}

// latTraffic is a write_lat ping-pong of iters exchanges (one packet each way per exchange).
func latTraffic(f *flow, size, iters int, seconds float64) traffic {
	t := traffic{packets: uint64(iters), messages: uint64(iters), wire: uint64(size) + perPacketHeaders, seconds: seconds}
	if f.lossy() {
		t.drops = max(3, uint64(iters)/1000)
	}
	return t
}

// retransmitFactor is how many frames go-back-N resends per frame lost.
const retransmitFactor = 8

// runCounters is what a run that got through adds: traffic on every port of the flow,
// PFC pauses on every lossless cable from the receiver back to the first lossy one, ECN marks
// at the switch egress port nearest the receiver that marks the class, and for a lossy flow
// the drops at the lossy cable nearest the receiver plus the transport's retransmissions.
func runCounters(f *flow, c, s side, t traffic, sd seed) *counterSet {
	cs := newCounterSet()
	snd, rcv := f.links[0].tx, f.links[len(f.links)-1].rx
	sent := t.packets + t.drops*retransmitFactor
	// The receiver paces the flow, so congestion builds from its end: the lossy cable nearest
	// the receiver overflows and drops; the cables before it never see back-pressure.
	lossyAt := -1
	for i, l := range f.links {
		if !l.lossless() {
			lossyAt = i
		}
	}
	inFlight := sent
	for i, l := range f.links {
		if !l.tx.host { // switch egress: the queue of the class
			cs.swc(l.tx.at, inFlight, "queue%d_tx_packets", l.tx.class)
			cs.swc(l.tx.at, inFlight*t.wire, "queue%d_tx_bytes", l.tx.class)
		}
		sentHere := inFlight
		if i == lossyAt && t.drops > 0 {
			chargeDrops(cs, l, t.drops, t.wire)
			inFlight -= min(t.drops, inFlight)
			if !l.tx.host && !l.tx.pfc { // dropped in the egress queue: never on the wire
				sentHere = inFlight
			}
		}
		if !l.tx.host { // the port's own traffic counters (IF-MIB octets and unicast packets)
			cs.traffic(l.tx.at, false, sentHere, t.wire)
		}
		if !l.rx.host { // switch ingress: the priority group of the class
			cs.swc(l.rx.at, inFlight, "pg%d_rx_frames", l.rx.class)
			cs.traffic(l.rx.at, true, sentHere, t.wire)
		}
	}
	arrived := inFlight

	cs.stat(snd.at, sent, "tx_prio%d_packets", snd.class)
	cs.stat(snd.at, sent*t.wire, "tx_prio%d_bytes", snd.class)
	for _, n := range []string{"tx_packets_phy", "tx_vport_rdma_unicast_packets"} {
		cs.stat(snd.at, sent, "%s", n)
	}
	for _, n := range []string{"tx_bytes_phy", "tx_vport_rdma_unicast_bytes"} {
		cs.stat(snd.at, sent*t.wire, "%s", n)
	}
	cs.stat(rcv.at, arrived, "rx_prio%d_packets", rcv.class)
	cs.stat(rcv.at, arrived*t.wire, "rx_prio%d_bytes", rcv.class)
	for _, n := range []string{"rx_packets_phy", "rx_vport_rdma_unicast_packets", sizeBucket(t.wire)} {
		cs.stat(rcv.at, arrived, "%s", n)
	}
	for _, n := range []string{"rx_bytes_phy", "rx_vport_rdma_unicast_bytes"} {
		cs.stat(rcv.at, arrived*t.wire, "%s", n)
	}
	cs.hwc(rcv.at, "rx_write_requests", t.messages)

	pauses(cs, f, t, sd)
	slowReceiverPauses(cs, f, s, t)
	ecn(cs, f, c, s, t, sd)
	if t.drops > 0 {
		events := max(1, t.drops/4) // one NAK-sequence-error exchange per burst of losses
		timeouts := max(1, t.drops/400)
		cs.hwc(rcv.at, "out_of_sequence", events)
		cs.hwc(rcv.at, "duplicate_request", t.drops/3)
		cs.hwc(snd.at, "packet_seq_err", events)
		cs.hwc(snd.at, "local_ack_timeout_err", timeouts)
		cs.hwc(snd.at, "roce_adp_retrans", max(1, t.drops/20))
		cs.hwc(snd.at, "roce_adp_retrans_to", timeouts)
		cs.hwc(snd.at, "roce_slow_restart", max(1, timeouts/2))
	}
	return cs
}

// chargeDrops puts a lossy cable's losses where the frames overflow: the egress queue of a
// switch port that ignores its receiver's pause, else the ingress of the receiving side
// (the priority group of a switch port that cannot pause its sender, or the receiving NIC).
func chargeDrops(cs *counterSet, l link, drops, wire uint64) {
	switch {
	case !l.tx.host && !l.tx.pfc:
		cs.swc(l.tx.at, drops, "queue%d_drops", l.tx.class)
		cs.swc(l.tx.at, drops*wire, "queue%d_drop_bytes", l.tx.class)
	case !l.rx.host:
		cs.swc(l.rx.at, drops*wire, "pg%d_rx_discard_bytes", l.rx.class)
	default:
		cs.stat(l.rx.at, drops, "rx_prio%d_discards", l.rx.class)
		cs.stat(l.rx.at, drops, "rx_discards_phy")
	}
}

// pauses: the receiver paces the flow, so pause frames start at its NIC and fade hop by hop
// toward the sender, stopping at the first cable (from the receiver) without working PFC.
func pauses(cs *counterSet, f *flow, t traffic, sd seed) {
	n := math.Max(1, float64(sd.pick("pauses", 80, 240))*t.seconds/10)
	for i := len(f.links) - 1; i >= 0 && f.links[i].lossless(); i-- {
		l := f.links[i]
		count := uint64(math.Max(1, n))
		quanta := count * (20 + sd.pick(fmt.Sprint("quanta", i), 0, 20)) // microseconds paused
		cs.pause(l, count, quanta)
		n *= 0.55
	}
}

// pause counts frames pause frames lasting us microseconds in all on one link: sent by its
// receiving end, received by its sending end, in each end's own counter names (mlx5 ethtool
// on hosts, the switch's PFC counters).
func (cs *counterSet) pause(l link, frames, us uint64) {
	if l.rx.host {
		cs.stat(l.rx.at, frames, "tx_prio%d_pause", l.rx.class)
		cs.stat(l.rx.at, us, "tx_prio%d_pause_duration", l.rx.class)
		cs.stat(l.rx.at, frames, "tx_pause_ctrl_phy")
	} else {
		cs.swc(l.rx.at, frames, "pfc_tx_pause_prio%d", l.rx.class)
		cs.swc(l.rx.at, us, "pfc_tx_pause_duration_prio%d", l.rx.class)
	}
	if l.tx.host {
		cs.stat(l.tx.at, frames, "rx_prio%d_pause", l.tx.class)
		cs.stat(l.tx.at, us, "rx_prio%d_pause_duration", l.tx.class)
		cs.stat(l.tx.at, max(1, frames/2), "rx_prio%d_pause_transition", l.tx.class)
		cs.stat(l.tx.at, frames, "rx_pause_ctrl_phy")
	} else {
		cs.swc(l.tx.at, frames, "pfc_rx_pause_prio%d", l.tx.class)
		cs.swc(l.tx.at, us, "pfc_rx_pause_duration_prio%d", l.tx.class)
	}
}

// ecn: DCQCN at work. The switch egress nearest the receiver that marks the class marks a few
// thousand packets; the receiver's notification point answers with CNPs (on the CNP
// priority) when enabled for the class, and the sender's reaction point handles them when
// enabled, else ignores them.
func ecn(cs *counterSet, f *flow, c, s side, t traffic, sd seed) {
	var marker *point
	for i := len(f.links) - 1; i >= 0; i-- {
		if p := f.links[i].tx; !p.host && p.ecn {
			marker = &p
			break
		}
	}
	if marker == nil || t.packets == 0 {
		return
	}
	marks := min(t.packets, max(1, uint64(float64(sd.pick("ecn", 800, 2500))*t.seconds/10)))
	snd, rcv := f.links[0].tx, f.links[len(f.links)-1].rx
	cs.swc(marker.at, marks, "ecn_marked_packets_tx")
	cs.swc(marker.at, marks, "queue%d_ecn_marked_packets", marker.class) // NX-OS counts marks per queue
	cs.hwc(rcv.at, "np_ecn_marked_roce_packets", marks)
	if !s.eth.ECN.NP[rcv.class] {
		return
	}
	cnps := marks * 9 / 10
	cs.hwc(rcv.at, "np_cnp_sent", cnps)
	cs.stat(rcv.at, cnps, "tx_prio%d_packets", s.eth.ECN.CNP802pPrio&7)
	cs.stat(snd.at, cnps, "rx_prio%d_packets", s.eth.ECN.CNP802pPrio&7)
	if c.eth.ECN.RP[snd.class] {
		cs.hwc(snd.at, "rp_cnp_handled", cnps)
	} else {
		cs.hwc(snd.at, "rp_cnp_ignored", cnps)
	}
}

// failureCounters is a QP that never got an ACK: the first 128 writes sent and resent
// retry_cnt (7) times, each try ending in a local ACK timeout, then the transport error.
// The frames cross the switch ports before the one that drops them (f.crossed), which count
// them in their traffic counters.
func failureCounters(c side, dscp int, f *flow) *counterSet {
	cs := newCounterSet()
	at := Endpoint{c.host, c.netdev}
	const tries = 8
	cs.stat(at, 128*tries, "tx_prio%d_packets", c.prio(dscp))
	cs.stat(at, 128*tries, "tx_packets_phy")
	wire := uint64(f.mtu) + perPacketHeaders
	cs.stat(at, 128*tries*wire, "tx_bytes_phy")
	for i, h := range f.hops { // the frames reach f.crossed switch ports, in then out per hop
		if 2*i < f.crossed {
			cs.traffic(Endpoint{h.Device, h.In}, true, 128*tries, wire)
		}
		if 2*i+1 < f.crossed {
			cs.traffic(Endpoint{h.Device, h.Out}, false, 128*tries, wire)
		}
	}
	cs.hwc(at, "local_ack_timeout_err", tries)
	cs.hwc(at, "req_transport_retries_exceeded", 1)
	return cs
}

// traffic counts pkts frames of wire bytes each on a switch port's own traffic counters
// (IF-MIB unicast packets and octets), received (in) or sent.
func (cs *counterSet) traffic(at Endpoint, in bool, pkts, wire uint64) {
	if in {
		cs.swc(at, pkts, "%s", switchstate.InUcastPkts)
		cs.swc(at, pkts*wire, "%s", switchstate.InOctets)
		return
	}
	cs.swc(at, pkts, "%s", switchstate.OutUcastPkts)
	cs.swc(at, pkts*wire, "%s", switchstate.OutOctets)
}

func sizeBucket(wire uint64) string {
	switch {
	case wire <= 1518:
		return "rx_1024_to_1518_bytes_phy"
	case wire <= 2047:
		return "rx_1519_to_2047_bytes_phy"
	case wire <= 4095:
		return "rx_2048_to_4095_bytes_phy"
	case wire <= 8191:
		return "rx_4096_to_8191_bytes_phy"
	}
	return "rx_8192_to_10239_bytes_phy"
}

// applier adds a counterSet to the live state in steps, so counters rise while a run goes
// on: at progress x in [0, 1] every counter has received round-down(total*x), and at 1
// exactly its total. Counters only ever increase.
type applier struct {
	total   *counterSet
	applied *counterSet
	hosts   map[string]*linuxhost.Host
	sws     map[string]*switchstate.Switch
}

func newApplier(total *counterSet, hosts map[string]*linuxhost.Host, sws map[string]*switchstate.Switch) *applier {
	return &applier{total: total, applied: newCounterSet(), hosts: hosts, sws: sws}
}

// step brings every counter to its share at progress x.
func (a *applier) step(x float64) {
	x = math.Min(1, math.Max(0, x))
	incs := func(total, applied map[Endpoint]map[string]uint64) map[Endpoint]map[string]uint64 {
		out := map[Endpoint]map[string]uint64{}
		for at, names := range total {
			for name, v := range names {
				target := v
				if x < 1 {
					target = uint64(float64(v) * x)
				}
				if inc := target - min(target, applied[at][name]); inc > 0 {
					add(applied, at, name, inc)
					add(out, at, name, inc)
				}
			}
		}
		return out
	}
	stats, hw, sw := incs(a.total.stats, a.applied.stats), incs(a.total.hw, a.applied.hw), incs(a.total.sw, a.applied.sw)
	for _, dev := range devices(stats, hw) {
		a.hosts[dev].Update(func(h *linuxhost.Host) {
			for at, names := range stats {
				if at.Device != dev {
					continue
				}
				if nd := h.Netdev(at.Port); nd != nil && nd.Eth != nil {
					if nd.Eth.Stats == nil {
						nd.Eth.Stats = map[string]uint64{}
					}
					for name, v := range names {
						nd.Eth.Stats[name] += v
					}
				}
			}
			for at, names := range hw {
				if at.Device != dev {
					continue
				}
				if _, p := h.Port(at.Port); p != nil {
					if p.Counters == nil {
						p.Counters = map[string]uint64{}
					}
					for name, v := range names {
						p.Counters[name] += v
					}
				}
			}
		})
	}
	for _, dev := range devices(sw) {
		a.sws[dev].Update(func(s *switchstate.Switch) {
			for at, names := range sw {
				if at.Device != dev {
					continue
				}
				if p := s.Port(at.Port); p != nil {
					if p.Counters == nil {
						p.Counters = map[string]int64{}
					}
					for name, v := range names {
						p.Counters[name] += int64(v)
					}
				}
			}
		})
	}
}

// devices lists the devices the maps touch, sorted (a stable lock order).
func devices(ms ...map[Endpoint]map[string]uint64) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for at := range m {
			if !seen[at.Device] {
				seen[at.Device] = true
				out = append(out, at.Device)
			}
		}
	}
	sort.Strings(out)
	return out
}
