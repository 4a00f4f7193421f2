package rdmaemu

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// RoCE sizes: the kernel's worst-case RoCE header overhead on top of the IB MTU
// (linuxhost's iboe_get_mtu rule) and the Ethernet header plus FCS a switch's frame MTU counts.
const (
	roceOverhead = 96
	ethOverhead  = 18
)

// side is what one end of a run needs from its host, read under the host's lock.
type side struct {
	host, netdev, device string
	ibPort               int
	activeMTU            int
	netdevMTU            int
	speedGbps            float64
	gid                  linuxhost.GIDEntry
	gidSet               bool // the -x slot is populated
	tclass               int  // the ToS the QP's packets carry (OFED's global tclass wins over --tclass)
	eth                  linuxhost.EthPort
}

// startError is perftest failing before it talks to the other side: stderr text, exit 1.
type startError struct{ stderr string }

var globalTClass = regexp.MustCompile(`^Global tclass=(\d+)$`)

// readSide checks the device and port as perftest does at start (ctx_find_dev, check_link)
// and reads the port's state for the run.
func readSide(h *linuxhost.Host, a perfArgs) (side, *startError) {
	s := side{host: h.Name, device: a.device, ibPort: a.ibPort}
	var fail *startError
	h.Read(func(h *linuxhost.Host) {
		var dev *linuxhost.RDMADevice
		for _, d := range h.RDMA {
			if d.Name == a.device {
				dev = d
			}
		}
		if dev == nil {
			fail = &startError{fmt.Sprintf("IB device %s not found\n Unable to find the Infiniband/RoCE device\n", a.device)}
			return
		}
		var port *linuxhost.RDMAPort
		for _, p := range dev.Ports {
			if p.Num == a.ibPort {
				port = p
			}
		}
		if port == nil {
			fail = &startError{" Couldn't get context for the device\n"}
			return
		}
		nd := h.Netdev(port.Netdev)
		if port.Disabled || nd == nil || !nd.AdminUp || !nd.Carrier || nd.Eth == nil {
			fail = &startError{fmt.Sprintf(" Port number %d state is Down\n Couldn't get context for the device\n", a.ibPort)}
			return
		}
		s.netdev, s.netdevMTU = nd.Name, nd.MTU
		s.activeMTU = linuxhost.ActiveMTU(nd.MTU, port.MaxMTU)
		s.speedGbps = float64(port.Width) * port.LaneGbps
		s.eth = *nd.Eth
		s.eth.Stats = nil // counters are not part of the snapshot
		if table := h.GIDTable(port); a.gidIndex >= 0 && a.gidIndex < len(table) {
			s.gid, s.gidSet = table[a.gidIndex], true
		}
		s.tclass = max(a.tclass, 0)
		if m := globalTClass.FindStringSubmatch(port.TrafficClass); m != nil {
			s.tclass, _ = strconv.Atoi(m[1])
		}
	})
	return s, fail
}

// prio is the priority the NIC gives the RoCE packets of a DSCP: the DSCP map under trust
// dscp; under trust pcp untagged RoCE traffic is priority 0.
func (s side) prio(dscp int) int {
	if s.eth.Trust == "dscp" {
		return s.eth.DSCP2Prio[dscp]
	}
	return 0
}

// swPort is one switch port as a flow sees it.
type swPort struct {
	up       bool
	frameMTU int
	speed    int
	trust    bool
	dscpToTC [64]int
	pfcRX    [8]bool
	pfcTX    [8]bool
	ecn      [8]bool
}

func readSwitchPort(sw *switchstate.Switch, name string) (swPort, bool) {
	var p swPort
	found := false
	sw.Read(func(sw *switchstate.Switch) {
		sp := sw.Port(name)
		if sp == nil {
			return
		}
		found = true
		p = swPort{up: sp.Up, frameMTU: sp.MTU, speed: sp.Speed, trust: sp.TrustDSCP, dscpToTC: sp.DSCPToTC,
			pfcRX: sp.PFCRX, pfcTX: sp.PFCTX, ecn: sp.ECN}
		if sw.Platform == "eos" { // EOS configures the IP MTU
			p.frameMTU += ethOverhead
		}
	})
	return p, found
}

// point is one port a flow passes, in order: the sender's NIC, then each switch's in and out
// port, then the receiver's NIC.
type point struct {
	at     Endpoint
	host   bool
	egress bool // the flow leaves the device here
	class  int  // host priority, or the switch traffic class (= queue = priority group)
	// pfc: an egress point honours PFC pause for its class; an ingress point sends it.
	pfc bool
	ecn bool // a switch egress point marks ECN on its class
}

// link is one cable of the flow: tx sends, rx receives.
type link struct{ tx, rx point }

// lossless is PFC working across the cable for the flow's class: rx pauses, tx stops.
func (l link) lossless() bool { return l.tx.pfc && l.rx.pfc }

// flow is the emulated RoCE flow of one run from the client to the server.
type flow struct {
	hops      []Hop
	links     []link
	blackhole string // why no packet arrives; "" when they do
	// crossed is how many switch ports (each hop's in, then out) a blackholed flow's frames
	// still pass before they are dropped.
	crossed     int
	mtu         int // the IB MTU both sides use (perftest takes the smaller)
	slowestGbps float64
}

// lossy reports whether some cable of the flow has no working PFC for its class.
func (f *flow) lossy() bool {
	for _, l := range f.links {
		if !l.lossless() {
			return true
		}
	}
	return false
}

// evaluate follows the flow client -> server over hops and checks each port for the RoCE
// class: DSCP = tclass>>2, host priority by the NIC's trust and DSCP map, switch class by the
// ingress port's trust and DSCP map, PFC in the direction each port needs, MTU, link state.
func (e *Emulator) evaluate(c, s side, hops []Hop) *flow {
	f := &flow{hops: hops, mtu: min(c.activeMTU, s.activeMTU), slowestGbps: min(c.speedGbps, s.speedGbps), crossed: 2 * len(hops)}
	dscp := c.tclass >> 2
	need := f.mtu + roceOverhead + ethOverhead
	switch {
	case c.gid.Type != linuxhost.GIDTypeV2 || s.gid.Type != linuxhost.GIDTypeV2:
		f.blackhole, f.crossed = "RoCE v1 GID: v1 frames are not routed, and v1 and v2 never talk", 0
	case len(hops) > 0 && (c.gid.Addr.IsLinkLocalUnicast() || s.gid.Addr.IsLinkLocalUnicast()):
		f.blackhole, f.crossed = "link-local GID across a routed fabric", 0
	case s.netdevMTU < f.mtu+roceOverhead:
		f.blackhole = fmt.Sprintf("%s:%s MTU %d drops %d-byte RoCE packets", s.host, s.netdev, s.netdevMTU, f.mtu)
	}
	sender := point{at: Endpoint{c.host, c.netdev}, host: true, egress: true, class: c.prio(dscp)}
	sender.pfc = c.eth.PFC[sender.class]
	prev := sender
	for i, h := range hops {
		sw := e.switches[h.Device]
		in, okIn := readSwitchPort(sw, h.In)
		out, okOut := readSwitchPort(sw, h.Out)
		if !okIn || !okOut {
			f.blackhole, f.crossed = fmt.Sprintf("%s has no port %s or %s", h.Device, h.In, h.Out), min(f.crossed, 2*i)
			return f
		}
		class := 0
		if in.trust {
			class = in.dscpToTC[dscp] & 7
		}
		for k, p := range []swPort{in, out} {
			if f.blackhole == "" && p.frameMTU < need {
				f.blackhole = fmt.Sprintf("%s frame MTU %d < %d", h.Device, p.frameMTU, need)
				f.crossed = 2*i + k // a frame above the port's MTU is dropped there, uncounted
			}
			f.slowestGbps = min(f.slowestGbps, float64(p.speed))
		}
		ing := point{at: Endpoint{h.Device, h.In}, class: class, pfc: in.pfcTX[class]}
		egr := point{at: Endpoint{h.Device, h.Out}, egress: true, class: class, pfc: out.pfcRX[class], ecn: out.ecn[class]}
		f.links = append(f.links, link{prev, ing})
		prev = egr
	}
	recv := point{at: Endpoint{s.host, s.netdev}, host: true, class: s.prio(dscp)}
	recv.pfc = s.eth.PFC[recv.class]
	f.links = append(f.links, link{prev, recv})
	return f
}

// gidIsV4 reports an IPv4-mapped GID.
func gidIsV4(a netip.Addr) bool { return a.Is4In6() }
