package switchstate

import (
	"errors"
	"fmt"
	"net"
	"sort"
)

// Views of the state that more than one emulator renders the same way. What a NOS reads
// differently (SONiC's pfc_asym, Cumulus's regimes) stays in its emulator.

// HealthySwitch is a switch whose ports are all HealthyPort: 100G, up, at mtu (the platform's
// value for the 9216 class) and on the lossless recipe. Neighbours are the caller's to set.
func HealthySwitch(name, platform, model, version, mac string, mtu int, ports ...string) *Switch {
	sw := &Switch{Name: name, Platform: platform, Model: model, Version: version, MAC: mac}
	for _, p := range ports {
		sw.Ports = append(sw.Ports, HealthyPort(p, 100, mtu))
	}
	return sw
}

// SortedPorts is the ports in the order a NOS lists them: names compare with digit runs as
// numbers (Ethernet2 before Ethernet10, swp2 before swp10), as natsort does.
func (s *Switch) SortedPorts() []*Port {
	ps := append([]*Port(nil), s.Ports...)
	sort.SliceStable(ps, func(i, j int) bool { return NaturalLess(ps[i].Name, ps[j].Name) })
	return ps
}

// NaturalLess orders names with digit runs compared as numbers. A run stops adding digits
// once it passes 2^40, so an absurdly long run cannot overflow.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (int, string) {
	n, i := 0, 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		if n < 1<<40 {
			n = n*10 + int(s[i]-'0')
		}
	}
	return n, s[i:]
}

// PFCPriorities are the priorities the port pauses, receive and transmit merged, ascending:
// the no-drop priorities of a NOS that enables PFC per priority for both directions (EOS,
// NX-OS).
func (p *Port) PFCPriorities() []int {
	var out []int
	for prio := 0; prio < 8; prio++ {
		if p.PFCRX[prio] || p.PFCTX[prio] {
			out = append(out, prio)
		}
	}
	return out
}

// WatchdogOn is the port's watchdog as one switch per port (EOS, NX-OS): on when any
// priority is watched.
func (p *Port) WatchdogOn() bool {
	for _, on := range p.Watchdog {
		if on {
			return true
		}
	}
	return false
}

// Majority is the value most ports have (on a tie, the one that reached the top count first),
// or def without ports:
// how a NOS that has one switch-wide setting renders ports that differ.
func Majority[T comparable](ports []*Port, def T, get func(*Port) T) T {
	count := map[T]int{}
	best, bestN := def, 0
	for _, p := range ports {
		v := get(p)
		count[v]++
		if count[v] > bestN {
			best, bestN = v, count[v]
		}
	}
	return best
}

// BaseMAC is the chassis MAC, or a copy of def (6 bytes) when the state has none or not a
// 6-byte one.
func (s *Switch) BaseMAC(def net.HardwareAddr) net.HardwareAddr {
	if m, err := net.ParseMAC(s.MAC); err == nil && len(m) == 6 {
		return m
	}
	return append(net.HardwareAddr(nil), def...)
}

// PortMAC is the burned-in address of the i-th front-panel port (0-based): the i+1-th address
// after BaseMAC(def), counting in the last two bytes.
func (s *Switch) PortMAC(def net.HardwareAddr, i int) net.HardwareAddr {
	m := s.BaseMAC(def)
	n := (int(m[4])<<8 | int(m[5])) + i + 1
	m[4], m[5] = byte(n>>8), byte(n)
	return m
}

// CheckPorts runs check on every port under the read lock and joins what it reports: each
// bad(format, args...) becomes an error "platform switch port: " + the formatted text. It is
// the frame of an emulator's Validate; what a NOS cannot show is the emulator's to say.
func (s *Switch) CheckPorts(platform string, check func(sw *Switch, p *Port, bad func(format string, args ...any))) error {
	var errs []error
	s.Read(func(sw *Switch) {
		for _, p := range sw.Ports {
			check(sw, p, func(format string, args ...any) {
				errs = append(errs, fmt.Errorf(platform+" %s %s: "+format, append([]any{sw.Name, p.Name}, args...)...))
			})
		}
	})
	return errors.Join(errs...)
}

// Weighted reports whether the port states its DWRR weights (Port.Weight); otherwise the
// emulator schedules the non-strict queues by its own defaults.
func (p *Port) Weighted() bool { return p.Weight != [8]int{} }
