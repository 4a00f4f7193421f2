package topology

import (
	"regexp"
	"sort"
	"strings"
)

// shortEthernet matches the short forms of Ethernet port names: EOS "Et1/1", NX-OS "Eth1/1".
var shortEthernet = regexp.MustCompile(`^(?:et|eth)(\d.*)$`)

// NormalizePort folds the spellings of one port name to a comparable key:
// "Ethernet1/1", "Et1/1" and "eth1/1" are the same port; "swp1" and "Ethernet0" stay as they are.
func NormalizePort(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if m := shortEthernet.FindStringSubmatch(n); m != nil {
		return "ethernet" + m[1]
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

// ResolveLinks joins the declared links with the LLDP neighbours that switches report, keeping
// only links whose both ends are inventory devices. A link seen both ways is kept once; a
// declared link wins over LLDP for its source.
func ResolveLinks(s *Snapshot) []Link {
	byName := map[string]*Device{}
	for _, d := range s.Devices {
		byName[strings.ToLower(d.Name)] = d
	}
	seen := map[[2]string]int{}
	var out []Link
	add := func(l Link) {
		a, b := l.A.Device+":"+NormalizePort(l.A.Interface), l.B.Device+":"+NormalizePort(l.B.Interface)
		if a > b {
			a, b = b, a
		}
		if _, dup := seen[[2]string{a, b}]; dup {
			return
		}
		seen[[2]string{a, b}] = len(out)
		out = append(out, l)
	}
	for _, l := range s.Links {
		add(l)
	}
	for _, d := range s.Devices {
		if d.Switch == nil || !d.Switch.LLDP.Known {
			continue
		}
		for _, n := range d.Switch.LLDP.Value {
			peer, ok := byName[shortHost(n.SystemName)]
			if !ok {
				continue
			}
			port := peerPort(peer, n)
			if port == "" {
				continue
			}
			add(Link{A: PortRef{d.Name, n.LocalPort}, B: PortRef{peer.Name, port}, Source: "lldp"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].A.Device != out[j].A.Device {
			return out[i].A.Device < out[j].A.Device
		}
		return out[i].A.Interface < out[j].A.Interface
	})
	return out
}

// peerPort finds which of the peer's ports an LLDP neighbour entry names: the port ID when it
// is an interface name, else the port description.
func peerPort(peer *Device, n LLDPNeighbor) string {
	var names []string
	switch {
	case peer.Host != nil:
		for _, p := range peer.Host.Ports {
			names = append(names, p.Netdev)
		}
	case peer.Switch != nil:
		for _, p := range peer.Switch.Ports {
			names = append(names, p.Name)
		}
	}
	for _, cand := range []string{n.PortID, n.PortDescr} {
		for _, name := range names {
			if cand != "" && NormalizePort(cand) == NormalizePort(name) {
				return name
			}
		}
	}
	return ""
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
