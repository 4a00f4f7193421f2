package topology

import (
	"slices"
	"strings"
)

// NormalizePort folds the spellings of one port name to a comparable key:
// "Ethernet1/1", "Et1/1" and "eth1/1" are the same port; "swp1" and "Ethernet0" stay as they are.
// The short forms are EOS "Et1/1" and NX-OS "Eth1/1": "et" or "eth" then a digit, on one line.
// It is matched by hand: a regular expression here was a fifth of a 10,000-device check,
// called for every port comparison.
func NormalizePort(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, short := range [...]string{"et", "eth"} {
		rest, ok := strings.CutPrefix(n, short)
		if ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' && !strings.ContainsRune(rest, '\n') {
			return "ethernet" + rest
		}
	}
	return n
}

// shortHost strips a domain from an LLDP system name ("leaf1.dc.example" -> "leaf1").
func shortHost(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.IndexByte(n, '.'); i > 0 {
		return n[:i]
	}
	return n
}

// ResolveLinks joins the declared links with the LLDP neighbours that switches report, and
// that hosts report on ports no switch accounts for (lldpLinks), keeping only links whose
// both ends are inventory devices. A link seen both ways, or declared and seen, is kept once.
// Where LLDP sees a port cabled to another peer than the inventory declares, what LLDP sees
// now is kept and the declaration dropped; LinkChecks reports it.
func ResolveLinks(s *Snapshot) []Link {
	links, _ := resolveLinks(s)
	return links
}

// DeclaredLink is a declared link and what LLDP says about it.
type DeclaredLink struct {
	Link Link
	// Seen is the LLDP link at one of its ends, when LLDP saw that port; Agrees says whether
	// it is the same link.
	Seen   *Link
	Agrees bool
}

// LinkChecks compares every declared link with LLDP.
func LinkChecks(s *Snapshot) []DeclaredLink {
	_, declared := resolveLinks(s)
	return declared
}

// ResolveLinksAndChecks is ResolveLinks and LinkChecks from one resolution, for a caller
// that needs both (a check run): resolving reads every LLDP neighbour of the fabric.
func ResolveLinksAndChecks(s *Snapshot) ([]Link, []DeclaredLink) { return resolveLinks(s) }

func linkKey(l Link) [2]string {
	a, b := l.A.Device+":"+NormalizePort(l.A.Interface), l.B.Device+":"+NormalizePort(l.B.Interface)
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

func portKey(p PortRef) string { return p.Device + ":" + NormalizePort(p.Interface) }

// endKey and pairKey are portKey and linkKey as comparable values: resolving a 10,000-device
// fabric's links built ~400,000 key strings, a third of its time with the maps they filled.
type endKey struct{ device, port string }

type pairKey struct{ a, b endKey }

func endOf(p PortRef) endKey { return endKey{p.Device, NormalizePort(p.Interface)} }

func pairOf(l Link) pairKey {
	a, b := endOf(l.A), endOf(l.B)
	if a.device > b.device || a.device == b.device && a.port > b.port {
		a, b = b, a
	}
	return pairKey{a, b}
}

func resolveLinks(s *Snapshot) ([]Link, []DeclaredLink) {
	seenLLDP := lldpLinks(s)
	// The LLDP link at each end of a declared link (the last one listed there). Only those
	// ends are kept: a map of every end of ~64,000 LLDP links, for the few declared ones a
	// snapshot usually has, was a quarter of resolving the 10k lab snapshot's links.
	type seenAt struct {
		link Link
		ok   bool
	}
	atPort := make(map[endKey]seenAt, 2*len(s.Links))
	for _, l := range s.Links {
		atPort[endOf(l.A)], atPort[endOf(l.B)] = seenAt{}, seenAt{}
	}
	if len(atPort) > 0 {
		for _, l := range seenLLDP {
			for _, end := range [2]endKey{endOf(l.A), endOf(l.B)} {
				if _, declared := atPort[end]; declared {
					atPort[end] = seenAt{l, true}
				}
			}
		}
	}
	keys := make(map[pairKey]struct{}, len(s.Links)+len(seenLLDP))
	var out []Link // nil when there is none, as before
	if n := len(s.Links) + len(seenLLDP); n > 0 {
		out = make([]Link, 0, n)
	}
	add := func(l Link) {
		k := pairOf(l)
		if _, dup := keys[k]; !dup {
			keys[k] = struct{}{}
			out = append(out, l)
		}
	}
	var declared []DeclaredLink
	for _, l := range s.Links {
		dl := DeclaredLink{Link: l}
		for _, end := range []PortRef{l.A, l.B} {
			if at := atPort[endOf(end)]; at.ok && dl.Seen == nil {
				seen := at.link
				dl.Seen, dl.Agrees = &seen, pairOf(seen) == pairOf(l)
			}
		}
		declared = append(declared, dl)
		if dl.Seen == nil || dl.Agrees {
			add(l)
		}
	}
	for _, l := range seenLLDP {
		add(l)
	}
	slices.SortStableFunc(out, func(x, y Link) int {
		if c := strings.Compare(x.A.Device, y.A.Device); c != 0 {
			return c
		}
		return strings.Compare(x.A.Interface, y.A.Interface)
	})
	return out, declared
}

// lldpLinks are the links LLDP sees between inventory devices: first what switches report,
// then what hosts report (lldpd) on ports the switches did not account for. A is the device
// that reported the neighbour. Where the two views disagree about a port, the switch's is
// kept: a host-reported link is added only when neither of its ends is already linked.
func lldpLinks(s *Snapshot) []Link {
	byName := make(map[string]*Device, len(s.Devices))
	neighbours := 0 // what the maps below hold, at most: they were regrown a dozen times
	for _, d := range s.Devices {
		byName[strings.ToLower(d.Name)] = d
		if d.Switch != nil {
			neighbours += len(d.Switch.LLDP.Value)
		}
		if d.Host != nil {
			neighbours += len(d.Host.LLDP.Value)
		}
	}
	out := make([]Link, 0, neighbours)
	linked := make(map[endKey]bool, 2*neighbours)
	indexes := make(map[*Device]*peerIndex, len(s.Devices))
	peerPort := func(peer *Device, n LLDPNeighbor) string {
		x := indexes[peer]
		if x == nil {
			x = newPeerIndex(peer)
			indexes[peer] = x
		}
		return x.port(n)
	}
	add := func(l Link) {
		out = append(out, l)
		linked[endOf(l.A)], linked[endOf(l.B)] = true, true
	}
	for _, d := range s.Devices {
		if d.Switch == nil || !d.Switch.LLDP.Usable() {
			continue
		}
		for _, n := range d.Switch.LLDP.Value {
			peer, ok := byName[shortHost(n.SystemName)]
			if !ok {
				continue
			}
			if port := peerPort(peer, n); port != "" {
				add(Link{A: PortRef{d.Name, n.LocalPort}, B: PortRef{peer.Name, port}, Source: "lldp"})
			}
		}
	}
	for _, d := range s.Devices {
		if d.Host == nil || !d.Host.LLDP.Usable() {
			continue
		}
		for _, n := range d.Host.LLDP.Value {
			local := hostPortName(d.Host, n.LocalPort)
			peer, ok := byName[shortHost(n.SystemName)]
			if local == "" || !ok || peer.Switch == nil {
				continue // a port not audited, or a neighbour that is no inventory switch
			}
			port := peerPort(peer, n)
			if port == "" {
				continue
			}
			l := Link{A: PortRef{d.Name, local}, B: PortRef{peer.Name, port}, Source: "lldp"}
			if !linked[endOf(l.A)] && !linked[endOf(l.B)] {
				add(l)
			}
		}
	}
	return out
}

// hostPortName is the audited host port a neighbour was seen on, as the host names it.
func hostPortName(h *HostFacts, netdev string) string {
	for _, p := range h.Ports {
		if NormalizePort(p.Netdev) == NormalizePort(netdev) {
			return p.Netdev
		}
	}
	return ""
}

// peerIndex is a device's port names as LLDP neighbours may name them, folded once: every
// neighbour of a fabric is matched against its peer's ports, and folding every port of the
// peer for every neighbour was a tenth of a 10,000-device check.
type peerIndex struct {
	dev *Device
	// alias is the first switch port with an alias of each folded spelling.
	alias foldedNames
	// mac is the audited netdev of each MAC; "" where several share it (bond members carry
	// the bond's MAC), which then names none of them.
	mac foldedNames
	// name is the first port (host netdevs if the device has host facts, else switch ports)
	// of each folded spelling.
	name foldedNames
}

func newPeerIndex(peer *Device) *peerIndex {
	x := &peerIndex{dev: peer}
	switch {
	case peer.Host != nil:
		for _, p := range peer.Host.Ports {
			x.name.addFirst(NormalizePort(p.Netdev), p.Netdev)
		}
	case peer.Switch != nil:
		for _, p := range peer.Switch.Ports {
			x.name.addFirst(NormalizePort(p.Name), p.Name)
		}
	}
	if peer.Switch != nil {
		for _, p := range peer.Switch.Ports {
			for _, a := range p.Aliases {
				x.alias.addFirst(NormalizePort(a), p.Name)
			}
		}
	}
	if peer.Host != nil {
		for _, p := range peer.Host.Ports {
			if !p.Link.Usable() {
				continue
			}
			mac := normalizeMAC(p.Link.Value.MAC)
			if mac == "" {
				continue // matches no candidate: normalizeMAC of one is never ""
			}
			if _, seen := x.mac.get(mac); seen {
				x.mac.set(mac, "")
			} else {
				x.mac.set(mac, p.Netdev)
			}
		}
	}
	return x
}

// foldedNames maps folded spellings to names: a list while it is short (a host's few ports;
// three maps per host were most of newPeerIndex's time at 10,000 devices), a map past that.
type foldedNames struct {
	keys, names []string
	m           map[string]string
}

const foldedListMax = 8

func (f *foldedNames) get(k string) (string, bool) {
	if f.m != nil {
		name, ok := f.m[k]
		return name, ok
	}
	if i := slices.Index(f.keys, k); i >= 0 {
		return f.names[i], true
	}
	return "", false
}

// addFirst keeps the first name of each spelling.
func (f *foldedNames) addFirst(k, name string) {
	if _, ok := f.get(k); !ok {
		f.set(k, name)
	}
}

func (f *foldedNames) set(k, name string) {
	if f.m != nil {
		f.m[k] = name
		return
	}
	if i := slices.Index(f.keys, k); i >= 0 {
		f.names[i] = name
		return
	}
	if len(f.keys) < foldedListMax {
		f.keys, f.names = append(f.keys, k), append(f.names, name)
		return
	}
	f.m = make(map[string]string, 2*foldedListMax)
	for i, k := range f.keys {
		f.m[k] = f.names[i]
	}
	f.keys, f.names = nil, nil
	f.m[k] = name
}

// port finds which of the peer's ports an LLDP neighbour entry names: the port ID when it
// is an interface name, a switch port's alias or a host netdev's MAC (stock lldpd announces
// the MAC and puts the netdev name in the description), else the port description.
func (x *peerIndex) port(n LLDPNeighbor) string {
	peer := x.dev
	if peer.Host == nil && peer.Switch == nil {
		// The peer could not be collected (unreachable): keep the link as the neighbour names
		// its port, so paths still cross it and its checks say why they cannot decide.
		for _, cand := range []string{n.PortID, n.PortDescr} {
			if cand != "" && normalizeMAC(cand) == "" && ValidName(cand) == nil {
				return cand
			}
		}
		return ""
	}
	for _, cand := range []string{n.PortID, n.PortDescr} {
		if cand == "" {
			continue
		}
		k := NormalizePort(cand)
		// An alias is tried first: a NOS that has aliases announces the port by its alias, and
		// an alias may spell another port's name (a SKU whose Ethernet0 is alias "Ethernet1").
		if name, ok := x.alias.get(k); ok {
			return name
		}
		if peer.Host != nil {
			if name, _ := x.mac.get(normalizeMAC(cand)); name != "" {
				return name
			}
		}
		if name, ok := x.name.get(k); ok {
			return name
		}
	}
	return ""
}

// normalizeMAC folds the spellings of a MAC that LLDP port IDs come in (colons: lldpd, NVUE;
// dashes; Cisco/Arista dotted quads) to 12 lower-case hex digits, so "0C:42:A1:6B:1A:2C",
// "0c-42-a1-6b-1a-2c" and "0c42.a16b.1a2c" compare equal; it is "" for anything else. It is
// matched by hand (a regular expression and a Replacer were a twentieth of resolving links).
func normalizeMAC(s string) string {
	s = strings.TrimSpace(s)
	var groups int // hex digits between separators
	var sep byte
	switch len(s) {
	case 17: // six pairs, five ':' or '-'
		groups, sep = 2, s[2]
		if sep != ':' && sep != '-' {
			return ""
		}
	case 14: // three quads, two '.'
		groups, sep = 4, '.'
	default:
		return ""
	}
	var out [12]byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (i+1)%(groups+1) == 0 {
			if c != sep {
				return ""
			}
			continue
		}
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			c += 'a' - 'A'
		default:
			return ""
		}
		out[n] = c
		n++
	}
	return string(out[:])
}

// LinkedPorts lists, per device, the ports that are an end of a link.
func LinkedPorts(links []Link) map[string]map[string]PortRef {
	out := map[string]map[string]PortRef{}
	put := func(end, peer PortRef) {
		if out[end.Device] == nil {
			out[end.Device] = map[string]PortRef{}
		}
		out[end.Device][NormalizePort(end.Interface)] = peer
	}
	for _, l := range links {
		put(l.A, l.B)
		put(l.B, l.A)
	}
	return out
}
