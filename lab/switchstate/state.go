// Package switchstate is the NOS-agnostic state of an emulated switch in the built-in lab.
// Each platform emulator (lab/sonic, lab/cumulus, lab/eos, lab/nxos) renders this one state
// into its own command outputs and configuration language, so a scenario fault is one field
// and every command that would show it changes with it.
package switchstate

import (
	"net"
	"sync"
)

// Switch is one emulated switch.
type Switch struct {
	Name     string
	Platform string // sonic | cumulus | eos | nxos
	Model    string
	Version  string
	MAC      string // chassis MAC, LLDP chassis ID
	Ports    []*Port
	// Design names the published configuration whose spelling (object names, thresholds,
	// optional lines) the emulator follows where the state leaves a choice; "" is the lab's
	// own. Each emulator knows the designs of its NOS (lab/scenarios_vendor.go sets them).
	Design string
	// BufferModel is SONiC's DEVICE_METADATA buffer_model: "" or "traditional" (lossless
	// profiles in CONFIG_DB), "dynamic" (buffermgrd computes them; CONFIG_DB binds "NULL").
	BufferModel string
	// ECMPHashIPOnly is a switch whose ECMP hash covers the IP addresses but not the L4
	// ports (a fault: every RoCE flow of a host pair takes one member there, whatever UDP
	// source port its flow label gives it).
	ECMPHashIPOnly bool

	mu  sync.RWMutex
	gen uint64 // Updates so far (Generation)
}

// Port is one front-panel port. Values follow the lossless recipe when built by Healthy.
type Port struct {
	Name  string // as the NOS names it: Ethernet0 (SONiC), swp1 (Cumulus), Ethernet1/1 (EOS, NX-OS)
	Speed int    // Gb/s
	Up    bool
	MTU   int // as the NOS configures it: frame MTU (SONiC, Cumulus, NX-OS) or IP MTU (EOS)

	TrustDSCP bool
	// DSCPToTC maps DSCP to traffic class (switch priority / qos-group). On EOS and NX-OS the
	// map is switch-wide in practice; emulators may render it globally.
	DSCPToTC [64]int
	PFCRX    [8]bool // priorities honoured when received
	PFCTX    [8]bool // priorities for which pause frames are sent
	// PFCAuto is NX-OS `priority-flow-control mode auto` (DCBX-negotiated) instead of `on`.
	PFCAuto  bool
	Watchdog [8]bool
	PauseRX  bool // 802.3x
	PauseTX  bool
	ECN      [8]bool // queue -> ECN marking
	Strict   [8]bool // queue -> strict priority (else DWRR)
	// Weight is the DWRR weight of each non-strict queue (SONiC scheduler weight, NX-OS
	// bandwidth remaining percent, EOS bandwidth percent). All zero: the emulator's own
	// defaults; once any is set, a zero weight is NX-OS's `bandwidth remaining percent 0`
	// and, on SONiC and EOS, no scheduling line (the queue runs the NOS default).
	Weight   [8]int
	DCBX     bool    // port runs DCBX (EOS `dcbx mode ieee`, NX-OS mode auto)
	Lossless [8]bool // priority group -> lossless buffer profile
	// CableM is the cable length the switch is told (SONiC CABLE_LENGTH), Headroom the
	// lossless profile its lossless priority groups bind, ECNMin/ECNMax the WRED/ECN marking
	// thresholds of its ECN queues, in bytes (buffer.go).
	CableM         int
	Headroom       Headroom
	ECNMin, ECNMax int
	Neighbor       *Neighbor // LLDP neighbour seen on this port, if any

	Counters map[string]int64
}

// Neighbor is what LLDP learns on a port.
type Neighbor struct {
	SystemName string
	PortID     string // interface name of the far end
	PortDescr  string
	ChassisID  string // MAC
	MgmtIP     string
}

// Update changes the state under the switch lock.
func (s *Switch) Update(fn func(s *Switch)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	fn(s)
}

// Generation counts the Updates so far; call it inside Read or Update. An emulator keeps
// what it derives from the whole switch (not one port) until the generation moves, so a
// state built by hand must be complete before its first answer and change by Update after.
func (s *Switch) Generation() uint64 { return s.gen }

// Read gives a consistent view to a renderer.
func (s *Switch) Read(fn func(s *Switch)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	fn(s)
}

// Port finds a port by name.
func (s *Switch) Port(name string) *Port {
	for _, p := range s.Ports {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// The lossless RoCE configuration a healthy lab switch has, as an operator writes it: RoCE on
// DSCP 26 and priority 3, CNPs on DSCP 48 and priority 6.
const (
	RoCEPriority = 3
	CNPPriority  = 6
	RoCEDSCP     = 26
	CNPDSCP      = 48
)

// HealthyPort returns a port configured to the lossless recipe: DSCP trust with the dscp>>3
// map (26 -> 3, 48 -> 6), PFC on 3 both ways with the watchdog, no pause, ECN on queue 3,
// CNP queue 6 strict, static DCB, lossless buffer on PG 3. mtu is the platform's value for the
// 9216 class (9214 on EOS, the IP MTU).
func HealthyPort(name string, speed, mtu int) *Port {
	p := &Port{Name: name, Speed: speed, Up: true, MTU: mtu, TrustDSCP: true, Counters: map[string]int64{}}
	for d := range p.DSCPToTC {
		p.DSCPToTC[d] = d >> 3
	}
	p.PFCRX[RoCEPriority], p.PFCTX[RoCEPriority] = true, true
	p.Watchdog[RoCEPriority] = true
	p.ECN[RoCEPriority] = true
	p.Strict[CNPPriority] = true
	p.Lossless[RoCEPriority] = true
	healthyBuffers(p)
	return p
}

// PortIDIsMAC reports whether the neighbour announced its port by a 6-byte MAC (stock lldpd
// does); NOSes print such IDs their own way (colons, or dotted on EOS and NX-OS).
func (n *Neighbor) PortIDIsMAC() bool {
	mac, err := net.ParseMAC(n.PortID)
	return err == nil && len(mac) == 6
}

// PortName names the neighbour's port for descriptions: its port ID, unless that is a MAC (a
// host's stock lldpd), when the description the host sends is the netdev name.
func (n *Neighbor) PortName() string {
	if n.PortIDIsMAC() {
		return n.PortDescr
	}
	return n.PortID
}
