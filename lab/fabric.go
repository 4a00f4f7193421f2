package lab

import (
	"fmt"
	"slices"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// end is one end of a lab cable.
type end struct{ device, port string }

// switchSpec is one switch of the lab fabric: its platform and its ports in order.
type switchSpec struct {
	name, platform, model, version string
	mtu                            int // the 9216-class MTU as the platform writes it
	ports                          []string
}

// fabric is a lab's wiring as a value: its switches in device order and every cable. The
// built-in scenarios and the generator (generate.go) each produce one; the switch states,
// their LLDP neighbours and the perftest emulation's cables all come from it.
type fabric struct {
	switches []switchSpec
	cables   [][2]end
}

// fixedFabric is the built-in scenarios' fabric.
func fixedFabric() fabric { return fabric{switches: fabricSwitches, cables: fabricCables()} }

// withCables is f with more cables: each switch end's port is added to its switch (the
// switch list and port lists are copied, so fabricSwitches stays as it is).
func (f fabric) withCables(cables ...[2]end) fabric {
	switches := slices.Clone(f.switches)
	for _, c := range cables {
		for _, e := range c {
			if i := slices.IndexFunc(switches, func(s switchSpec) bool { return s.name == e.device }); i >= 0 {
				switches[i].ports = append(slices.Clone(switches[i].ports), e.port)
			}
		}
	}
	return fabric{switches: switches, cables: append(slices.Clone(f.cables), cables...)}
}

// isSwitch reports whether a device is one of the fabric's switches.
func (f fabric) isSwitch(device string) bool {
	for _, s := range f.switches {
		if s.name == device {
			return true
		}
	}
	return false
}

// switchMAC is the chassis MAC of the i-th switch of a fabric (0-based).
func switchMAC(i int) string {
	return fmt.Sprintf("98:03:9b:%02x:%02x:00", 0x10+(i+1)>>8, (i+1)&0xff)
}

// The lab fabric: two leaves per host rail, two spines (see README "The lab").
var fabricSwitches = []switchSpec{
	{"leaf1", "sonic", "Mellanox-SN4600C", "SONiC.202405", 9216, []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet48", "Ethernet52"}},
	{"leaf2", "cumulus", "MSN3700", "5.9.1", 9216, []string{"swp1", "swp2", "swp3", "swp4", "swp51", "swp52"}},
	{"leaf3", "eos", "DCS-7050CX3-32S", "4.31.2F", 9214, []string{"Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4", "Ethernet49", "Ethernet50"}},
	{"leaf4", "nxos", "N9K-C93180YC-FX", "10.3(4a)", 9216, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4", "Ethernet1/49", "Ethernet1/50"}},
	{"spine1", "nxos", "N9K-C9332C", "10.3(4a)", 9216, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}},
	{"spine2", "sonic", "Mellanox-SN4700", "SONiC.202405", 9216, []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"}},
}

// fabricCables wires hosts to leaves (port 0 to one leaf, port 1 to its rail twin) and every
// leaf to both spines.
func fabricCables() [][2]end {
	var out [][2]end
	for n := 1; n <= 8; n++ {
		host := fmt.Sprintf("gpu%02d", n)
		i := (n - 1) % 4
		leafA, leafB := "leaf1", "leaf2"
		if n > 4 {
			leafA, leafB = "leaf3", "leaf4"
		}
		out = append(out,
			[2]end{{host, linuxhost.Port0}, {leafA, fabricSwitches[leafIndex(leafA)].ports[i]}},
			[2]end{{host, linuxhost.Port1}, {leafB, fabricSwitches[leafIndex(leafB)].ports[i]}})
	}
	for l := 0; l < 4; l++ {
		leaf := fabricSwitches[l]
		out = append(out,
			[2]end{{leaf.name, leaf.ports[4]}, {"spine1", fabricSwitches[4].ports[l]}},
			[2]end{{leaf.name, leaf.ports[5]}, {"spine2", fabricSwitches[5].ports[l]}})
	}
	return out
}

func platformOf(device string) string {
	for _, s := range fabricSwitches {
		if s.name == device {
			return s.platform
		}
	}
	return "linux"
}

func leafIndex(name string) int {
	for i, s := range fabricSwitches {
		if s.name == name {
			return i
		}
	}
	panic("lab: no switch " + name)
}

// newSwitches builds every healthy switch of a fabric and lets each see its neighbours over
// LLDP, from the fabric's cables; the hosts' lldpd sees the switches too.
func newSwitches(f fabric, hosts map[string]*linuxhost.Host) map[string]*switchstate.Switch {
	out := map[string]*switchstate.Switch{}
	for i, s := range f.switches {
		sw := &switchstate.Switch{Name: s.name, Platform: s.platform, Model: s.model, Version: s.version,
			MAC: switchMAC(i)}
		for _, p := range s.ports {
			sw.Ports = append(sw.Ports, switchstate.HealthyPort(p, 100, s.mtu))
		}
		out[s.name] = sw
	}
	see := func(local end, remote end) {
		sw, ok := out[local.device]
		if !ok {
			return // a host's side: seeSwitchesFromHosts
		}
		n := &switchstate.Neighbor{SystemName: remote.device, PortID: remote.port, PortDescr: remote.port}
		if h, ok := hosts[remote.device]; ok {
			n.ChassisID, n.PortID = hostLLDPIDs(h, remote.port)
			matchHostSpeed(sw.Port(local.port), h, remote.port)
		} else {
			rs := out[remote.device]
			n.ChassisID = rs.MAC
			// The port ID as that NOS announces it (SONiC its alias, NX-OS the short name).
			n.PortID = advertised(rs, rs.Port(remote.port)).PortID
		}
		sw.Port(local.port).Neighbor = n
	}
	for _, c := range f.cables {
		see(c[0], c[1])
		see(c[1], c[0])
	}
	seeSwitchesFromHosts(f, hosts, out)
	return out
}

// switchFault is a broken-scenario fault on one switch port.
type switchFault struct {
	Fault
	apply func(p *switchstate.Port)
}

// brokenSwitchFaults: one fault per switch port, each on a knob the platform has per port.
var brokenSwitchFaults = []switchFault{
	{Fault{"leaf2", "swp2", "SW-MTU", "MTU 9000 on a host port"}, func(p *switchstate.Port) { p.MTU = 9000 }},
	{Fault{"leaf3", "Ethernet2", "SW-TRUST", "qos trust cos"}, func(p *switchstate.Port) { p.TrustDSCP = false }},
	{Fault{"leaf1", "Ethernet4", "SW-DSCP-MAP", "bound to a DSCP map with DSCP 26 -> TC 1 (SONiC's stock map)"}, func(p *switchstate.Port) { p.DSCPToTC[26] = 1 }},
	{Fault{"leaf1", "Ethernet8", "SW-PFC", "PFC on priorities 3 and 4"}, func(p *switchstate.Port) { p.PFCRX[4], p.PFCTX[4] = true, true }},
	{Fault{"leaf4", "Ethernet1/2", "SW-PFC-WATCHDOG", "no PFC watchdog"}, func(p *switchstate.Port) { p.Watchdog = [8]bool{} }},
	{Fault{"leaf3", "Ethernet3", "SW-PAUSE", "flowcontrol receive on"}, func(p *switchstate.Port) { p.PauseRX = true }},
	{Fault{"spine2", "Ethernet8", "SW-ECN", "no ECN marking on queue 3 toward leaf3"}, func(p *switchstate.Port) { p.ECN[3] = false }},
	{Fault{"spine2", "Ethernet0", "SW-CNP-QUEUE", "CNP queue 6 scheduled DWRR"}, func(p *switchstate.Port) { p.Strict[6] = false }},
	{Fault{"leaf4", "Ethernet1/3", "SW-DCBX", "priority-flow-control mode auto (DCBX)"}, func(p *switchstate.Port) { p.PFCAuto, p.DCBX = true, true }},
	// SONiC binds pfc_enable per port; its queue counters show the drops a transfer causes.
	{Fault{"leaf1", "Ethernet12", "SW-PFC", "PFC off on priority 3 toward gpu04 (lossy hop for transfers)"},
		func(p *switchstate.Port) { p.PFCRX, p.PFCTX, p.Watchdog = [8]bool{}, [8]bool{}, [8]bool{} }},
	{Fault{"spine2", "Ethernet4", "SW-BUFFER", "priority group 3 on a lossy buffer profile"}, func(p *switchstate.Port) { p.Lossless[3] = false }},
	// Buffer sizes: SONiC is told a 300 m cable but keeps the 40 m profile; a WRED profile
	// marks only above the point where the priority group already sends XOFF.
	{Fault{"spine2", "Ethernet12", "SW-HEADROOM", "CABLE_LENGTH 300m toward leaf4, PG 3 still on the 40 m profile (xoff 92160 B, 163840 B needed)"},
		func(p *switchstate.Port) { p.CableM = 300 }},
	{Fault{"leaf1", "Ethernet48", "SW-ECN-PFC-ORDER", "WRED green_min_threshold 2 MB on queue 3, above PG 3's PFC trigger (1.44 MB)"},
		func(p *switchstate.Port) { p.ECNMin, p.ECNMax = 2097152, 4194304 }},
	// One ECMP member of gpu01 -> gpu05 (through spine1) has a small MTU; the spine2 member is fine.
	{Fault{"spine1", "Ethernet1/3", "SW-MTU", "MTU 9000 toward leaf3: one equal-cost member of gpu01->gpu05"}, func(p *switchstate.Port) { p.MTU = 9000 }},
}

// Paths are the endpoint pairs the demo checks end to end and runs transfers on (the first
// end is the perftest client, the second the server): one crosses leaf1 (SONiC), a spine and
// leaf3 (EOS); one crosses leaf2 (Cumulus), a spine and leaf4 (NX-OS); one stays on leaf1 and
// reaches gpu04 through leaf1:Ethernet12, which the broken scenario leaves without PFC. The
// broken scenario adds a pair whose far end (gpu10) is cabled to nothing, and the two
// transfers of scenario_broken.go.
func Paths(scenario string) [][2]string {
	if _, ok := vendorScenarios[scenario]; ok {
		return vendorPaths()
	}
	if scenario == ScenarioHostVariants {
		return hostVariantPaths()
	}
	out := [][2]string{
		{"gpu01:" + linuxhost.Port0, "gpu05:" + linuxhost.Port0},
		{"gpu03:" + linuxhost.Port1, "gpu07:" + linuxhost.Port1},
		{"gpu01:" + linuxhost.Port0, "gpu04:" + linuxhost.Port0},
	}
	if scenario == ScenarioBroken {
		out = append(append(out, [2]string{"gpu01:" + linuxhost.Port0, "gpu10"}), brokenExtraPaths()...)
	}
	return out
}

// SweptPaths are the Paths whose transfers the demo runs with --all-paths, stepping the flow
// label until every equal-cost member carried a test: broken's pair across leaf2, whose hash
// ignores the UDP ports (XFER-COVERAGE). The other pairs keep one transfer each, so their
// results are those of a plain `audit --transfer`.
func SweptPaths(scenario string) [][2]string {
	if scenario == ScenarioBroken {
		return [][2]string{brokenCoveragePath}
	}
	return nil
}

// DeclaredLinks are the links the lab's inventory declares (LLDP finds the rest). The broken
// scenario declares one cable wrongly: LLDP sees gpu02's port 1 on leaf2:swp2, not swp3.
func DeclaredLinks(scenario string) [][2]string {
	if v, ok := vendorScenarios[scenario]; ok {
		return vendorDeclaredLinks(v)
	}
	if scenario == ScenarioHostVariants {
		return hostVariantDeclaredLinks()
	}
	out := [][2]string{
		{"gpu01:" + linuxhost.Port0, "leaf1:Ethernet0"},
		{"gpu05:" + linuxhost.Port1, "leaf4:Ethernet1/1"},
	}
	if scenario == ScenarioBroken {
		out = append(out, [2]string{"gpu02:" + linuxhost.Port1, "leaf2:swp3"})
	}
	return out
}
