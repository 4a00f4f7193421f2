package checks

import (
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// fabric indexes a snapshot for link and path checks.
type fabric struct {
	snap     *topology.Snapshot
	devices  map[string]*topology.Device
	links    []topology.Link
	declared []topology.DeclaredLink
	// swPorts are each reachable switch's ports by normalized name (the last of a name
	// wins, as a scan would find): end is called for every link end and every queue of the
	// deadlock analysis, and a scan of the ports each time was quadratic in a switch's ports.
	swPorts map[string]map[string]*topology.SwitchPort
}

func newFabric(snap *topology.Snapshot) *fabric {
	f := &fabric{snap: snap, devices: make(map[string]*topology.Device, len(snap.Devices)), swPorts: map[string]map[string]*topology.SwitchPort{}}
	// The links are resolved beside the indexes: both are serial, and were the checks'
	// start on one core (~0.2 s each at 10,000 devices).
	resolved := make(chan struct{})
	go func() {
		defer close(resolved)
		f.links, f.declared = topology.ResolveLinksAndChecks(snap)
	}()
	defer func() { <-resolved }()
	for _, d := range snap.Devices {
		f.devices[d.Name] = d
	}
	for _, d := range f.devices { // the device a name resolves to, if two share it
		if !d.Reachable || d.Switch == nil {
			continue
		}
		ports := make(map[string]*topology.SwitchPort, len(d.Switch.Ports))
		for _, p := range d.Switch.Ports {
			ports[topology.NormalizePort(p.Name)] = p
		}
		f.swPorts[d.Name] = ports
	}
	return f
}

// end is one side of a link with whatever facts were collected for it.
type end struct {
	ref  topology.PortRef
	dev  *topology.Device
	host *topology.HostPort
	sw   *topology.SwitchPort
}

func (f *fabric) end(ref topology.PortRef) end {
	e := end{ref: ref, dev: f.devices[ref.Device]}
	if e.dev == nil || !e.dev.Reachable {
		return e
	}
	if e.dev.Host != nil {
		e.host = e.dev.Host.Port(ref.Interface)
	}
	if e.dev.Switch != nil {
		e.sw = f.swPorts[ref.Device][topology.NormalizePort(ref.Interface)]
	}
	return e
}

// missing explains why an end has no facts.
func (e end) missing() string {
	switch {
	case e.dev == nil:
		return e.ref.Device + " is not in the inventory"
	case !e.dev.Reachable:
		return e.ref.Device + " was not reachable"
	}
	return e.ref.String() + " was not reported by the device"
}

// mtu is an end's MTU in comparable terms: the host netdev MTU, or the switch's normalized
// frame-class MTU.
func (e end) mtu() (int, string, *topology.Evidence, bool) {
	switch {
	case e.host != nil && e.host.Link.Usable():
		return e.host.Link.Value.MTU, "", nil, true
	case e.host != nil:
		return 0, "MTU unknown", ev(e.host.Link.Source), false
	case e.sw != nil && e.sw.MTU.Usable():
		return e.sw.MTU.Value.Normalized, "", nil, true
	case e.sw != nil:
		return 0, "MTU unknown", ev(e.sw.MTU.Evidence()), false
	}
	return 0, e.missing(), nil, false
}

// pfc is the set of priorities with PFC at an end; asym notes a switch whose rx and tx differ.
func (e end) pfc() (prios []int, asym string, why string, src *topology.Evidence, ok bool) {
	switch {
	case e.host != nil && e.host.QoS.Usable():
		return prioList(e.host.QoS.Value.PFC), "", "", nil, true
	case e.host != nil:
		return nil, "", "PFC unknown", ev(e.host.QoS.Source), false
	case e.sw != nil && e.sw.PFC.Usable() && e.sw.PFC.Value.Mode == "auto" && e.sw.PFC.Value.Oper == "":
		return nil, "", e.ref.String() + " negotiates PFC over DCBX (mode auto): operational state unknown", ev(e.sw.PFC.Evidence()), false
	case e.sw != nil && e.sw.PFC.Usable():
		var set [8]bool // only priorities 0..7 are listed
		for _, list := range [...][]int{e.sw.PFC.Value.RX, e.sw.PFC.Value.TX} {
			for _, p := range list {
				if p >= 0 && p < len(set) {
					set[p] = true
				}
			}
		}
		out := prioList(set)
		if len(e.sw.PFC.Value.RX) != len(e.sw.PFC.Value.TX) || len(out) != len(e.sw.PFC.Value.RX) {
			asym = " (asymmetric)"
		}
		return out, asym, "", nil, true
	case e.sw != nil:
		return nil, "", "PFC unknown", ev(e.sw.PFC.Evidence()), false
	}
	return nil, "", e.missing(), nil, false
}

// dcbx is an end's DCB regime, when known.
func (e end) dcbx() (string, bool) {
	switch {
	case e.host != nil && e.host.DCBX.Usable():
		return e.host.DCBX.Value.Mode, true
	case e.sw != nil && e.sw.DCBX.HasValue() && e.sw.DCBX.Value.Mode != "":
		return e.sw.DCBX.Value.Mode, true
	}
	return "", false
}

func evidenceOf(why string) *topology.Evidence { return &topology.Evidence{Error: why} }

// linkEvidence joins what each end's fact was read from.
func linkEvidence(a, b end, src func(e end) topology.Evidence) *topology.Evidence {
	ea, eb := src(a), src(b)
	out := &topology.Evidence{Command: a.ref.String() + ": " + ea.Command + "; " + b.ref.String() + ": " + eb.Command}
	for _, x := range []string{ea.Excerpt, eb.Excerpt} {
		if x != "" {
			out.Excerpt = strings.TrimSpace(out.Excerpt + "\n" + x)
		}
	}
	return out
}

func mtuSource(e end) topology.Evidence {
	switch {
	case e.host != nil:
		return e.host.Link.Source
	case e.sw != nil:
		return e.sw.MTU.Evidence()
	}
	return topology.Evidence{}
}

func pfcSource(e end) topology.Evidence {
	switch {
	case e.host != nil:
		return e.host.QoS.Source
	case e.sw != nil:
		return e.sw.PFC.Evidence()
	}
	return topology.Evidence{}
}
