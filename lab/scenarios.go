package lab

import (
	"fmt"
	"slices"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// Scenario names.
const (
	ScenarioHealthy = "healthy"
	ScenarioBroken  = "broken"
)

// Scenarios lists the built-in scenarios: healthy, broken, deadlock, the vendor designs
// (scenarios_vendor.go), then host-variants (scenario_hosts.go) and ecmp-polarized
// (scenario_ecmp.go).
func Scenarios() []string {
	return append(append([]string{ScenarioHealthy, ScenarioBroken, ScenarioDeadlock}, vendorScenarioNames...), ScenarioHostVariants, ScenarioECMPPolarized)
}

// Fault is one deliberate misconfiguration of a scenario, with the check that must catch it.
type Fault struct {
	Device      string
	Interface   string // "" when the fault is on the device, not a port
	Check       string // the check ID that fails on it
	Description string
}

// fault is a Fault and how to inject it into the healthy state.
type fault struct {
	Fault
	apply           func(h *linuxhost.Host) // nil for faults outside the host state
	hostKeyMismatch bool                    // the device presents a key known_hosts does not have
	sshFault        sshd.Fault              // the device's SSH server misbehaves this way
}

// Faults lists what is wrong in a scenario (none in healthy), in device order.
func Faults(scenario string) []Fault {
	if scenario == ScenarioHostVariants {
		return hostVariantFaultList()
	}
	if scenario != ScenarioBroken {
		return nil
	}
	out := make([]Fault, 0, len(brokenFaults)+len(brokenExtraFaults)+len(brokenSwitchFaults)+len(brokenFabricFaults))
	for _, f := range slices.Concat(brokenFaults, brokenExtraFaults) {
		out = append(out, f.Fault)
	}
	for _, f := range brokenSwitchFaults {
		if _, ok := switchEmulators[platformOf(f.Device)]; ok {
			out = append(out, f.Fault)
		}
	}
	return append(out, brokenFabricFaults...)
}

// device is one emulated device of a scenario and what the inventory says about it.
type device struct {
	name            string
	platform        string
	dev             sshd.Device
	host            *linuxhost.Host     // nil for non-Linux devices
	sw              *switchstate.Switch // nil for hosts
	interfaces      []string
	gidIndex        *int
	hostKeyMismatch bool
	fault           sshd.Fault // built into the scenario; a --faults entry for the device wins
	// cables are the fabric cables this switch owns: those whose first switch end it is, so
	// every cable has exactly one owner and the perftest emulation is wired from the devices.
	cables [][2]end
}

const ncclConf = "# NCCL over RoCE v2 (managed by configuration management)\n" +
	"NCCL_IB_HCA=mlx5_0,mlx5_1\n" +
	"NCCL_IB_GID_INDEX=%d\n" +
	"NCCL_SOCKET_IFNAME=eno1\n"

func gpu(n int) *device {
	name := fmt.Sprintf("gpu%02d", n)
	h := linuxhost.NewGPUHost(name, n)
	return &device{name: name, platform: "linux", dev: h, host: h}
}

// healthy is eight lossless GPU hosts, with variety that must still pass: gpu01 has an IPv6
// address and a VLAN on port 0 (so its GID table has v1+v2 entries for IPv4, IPv6 and the
// VLAN) and an inventory GID index; gpu02 has no mlnx-tools (the collector falls back to dcb);
// gpu06 has an /etc/nccl.conf (on a host whose broken faults leave the GID table alone, so
// the broken scenario keeps one fault per port).
func healthy() []*device {
	var ds []*device
	for n := 1; n <= 8; n++ {
		ds = append(ds, gpu(n))
	}
	g1 := ds[0]
	g1.host.AddAddr(linuxhost.Port0, "2001:db8:1::1/64")
	g1.host.AddVLAN(linuxhost.Port0, 100, "10.100.0.1/24")
	g1.interfaces = []string{linuxhost.Port0, linuxhost.Port1}
	idx := 3
	g1.gidIndex = &idx

	ds[1].host.MlnxQoS = false
	ds[5].host.Files["/etc/nccl.conf"] = fmt.Sprintf(ncclConf, 3)
	return ds
}

// brokenFaults are the broken scenario's faults: exactly one per host port, each a few lines
// away from healthy, a host without perftest, and a ninth host whose SSH host key does not
// match known_hosts.
var brokenFaults = []fault{
	{Fault: Fault{"gpu01", linuxhost.Port1, "HOST-RDMA-PORT", "RDMA port mlx5_1/1 PORT_DOWN (phys_state DISABLED), netdev DOWN"},
		apply: func(h *linuxhost.Host) {
			h.Netdev(linuxhost.Port1).Carrier = false
			_, p := h.Port(linuxhost.Port1)
			p.Disabled = true
		}},
	{Fault: Fault{"gpu02", linuxhost.Port0, "HOST-GID-V2", "mlx5_0/1 creates RoCE v1 GIDs only: no RoCE v2 GID for 10.1.0.2"},
		apply: func(h *linuxhost.Host) {
			_, p := h.Port(linuxhost.Port0)
			p.V1Only = true
		}},
	{Fault: Fault{"gpu03", linuxhost.Port0, "HOST-GID-INDEX", "/etc/nccl.conf NCCL_IB_GID_INDEX=2 points at the RoCE v1 entry"},
		apply: func(h *linuxhost.Host) { h.Files["/etc/nccl.conf"] = fmt.Sprintf(ncclConf, 2) }},
	{Fault: Fault{"gpu03", linuxhost.Port1, "HOST-GID-INDEX", "/etc/nccl.conf NCCL_IB_GID_INDEX=2 points at the RoCE v1 entry"},
		apply: func(h *linuxhost.Host) { h.Files["/etc/nccl.conf"] = fmt.Sprintf(ncclConf, 2) }},
	{Fault: Fault{"gpu03", "", "XFER-RUN", "perftest not installed: timeout cannot run ib_write_bw (exit 127)"},
		apply: func(h *linuxhost.Host) { h.Perftest = false }},
	{Fault: Fault{"gpu04", linuxhost.Port0, "HOST-MTU", "netdev MTU 4200 (active_mtu still 4096)"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).MTU = 4200 }},
	{Fault: Fault{"gpu04", linuxhost.Port1, "HOST-ROCE-MTU", "port max_mtu 2048, so active_mtu 2048 at netdev MTU 9000"},
		apply: func(h *linuxhost.Host) {
			_, p := h.Port(linuxhost.Port1)
			p.MaxMTU = 2048
		}},
	{Fault: Fault{"gpu05", linuxhost.Port0, "HOST-TRUST", "trust pcp"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Eth.Trust = "pcp" }},
	{Fault: Fault{"gpu05", linuxhost.Port1, "HOST-DSCP-MAP", "trust dscp but DSCP 26 -> priority 0"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port1).Eth.DSCP2Prio[26] = 0 }},
	{Fault: Fault{"gpu06", linuxhost.Port0, "HOST-PFC", "PFC on priorities 3 and 4"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Eth.PFC[4] = true }},
	{Fault: Fault{"gpu06", linuxhost.Port1, "HOST-PAUSE", "802.3x global pause RX on, TX on"},
		apply: func(h *linuxhost.Host) {
			e := h.Netdev(linuxhost.Port1).Eth
			e.PauseRX, e.PauseTX = true, true
		}},
	{Fault: Fault{"gpu07", linuxhost.Port0, "HOST-ECN", "DCQCN notification point off on priority 3 (roce_np/enable/3 = 0)"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Eth.ECN.NP[3] = false }},
	{Fault: Fault{"gpu07", linuxhost.Port1, "HOST-CNP", "cnp_dscp 46"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port1).Eth.ECN.CNPDSCP = 46 }},
	{Fault: Fault{"gpu08", linuxhost.Port0, "HOST-TOS", "traffic_class Global tclass=96 (DSCP 24, no ECT)"},
		apply: func(h *linuxhost.Host) {
			_, p := h.Port(linuxhost.Port0)
			p.TrafficClass = "Global tclass=96"
		}},
	{Fault: Fault{"gpu08", linuxhost.Port1, "HOST-DCBX", "DCBX mode: Firmware controlled"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port1).Eth.DCBXHost = false }},
	{Fault: Fault{"gpu10", linuxhost.Port0, "HOST-PFC-STORM", "tx_pause_storm_warning_events 4, tx_pause_storm_error_events 1: the NIC stopped sending pause once"},
		apply: func(h *linuxhost.Host) {
			st := h.Netdev(linuxhost.Port0).Eth.Stats
			st["tx_pause_storm_warning_events"], st["tx_pause_storm_error_events"] = 4, 1
		}},
	{Fault: Fault{"gpu09", "", "COLLECT-REACH", "SSH host key differs from the one in known_hosts"},
		hostKeyMismatch: true},
}

// broken is healthy plus gpu09 (wrong host key) and gpu10 (reachable, healthy, cabled to
// nothing: the path to it cannot resolve), with brokenFaults applied to the hosts, then
// gpu11..gpu14 (scenario_broken.go).
func broken() []*device {
	ds := append(healthy(), gpu(9), gpu(10))
	for _, f := range brokenFaults {
		d := deviceNamed(ds, f.Device, "broken fault on", "gpu01..gpu10")
		if f.apply != nil {
			f.apply(d.host)
		}
		d.hostKeyMismatch = d.hostKeyMismatch || f.hostKeyMismatch
	}
	return append(ds, brokenExtraHosts()...)
}

// deviceNamed is the device of ds called name. A scenario's fault on a device it does not
// build is a programming error of the scenario, so it panics with what it was looking for
// ("broken fault on"), the name and the devices there are (among, "gpu01..gpu10"), not with
// a bare index out of range.
func deviceNamed(ds []*device, name, what, among string) *device {
	i := slices.IndexFunc(ds, func(d *device) bool { return d.name == name })
	if i < 0 {
		panic(fmt.Sprintf("lab: %s %s, which is not one of %s", what, name, among))
	}
	return ds[i]
}

// withSwitches adds a fabric's switches, cabled to the hosts, with the scenario's switch
// faults applied (a generated fabric has none).
func withSwitches(f fabric, scenario string, hosts []*device, latency time.Duration) []*device {
	byName := map[string]*linuxhost.Host{}
	for _, d := range hosts {
		byName[d.name] = d.host
	}
	states := newSwitches(f, byName)
	if scenario == ScenarioBroken {
		for _, f := range brokenSwitchFaults {
			sw := states[f.Device]
			if sw == nil {
				panic(fmt.Sprintf("lab: broken switch fault on %s, which is not a switch of the fabric", f.Device))
			}
			p := sw.Port(f.Interface)
			if p == nil {
				panic(fmt.Sprintf("lab: broken switch fault on %s:%s, which is not a port of %s", f.Device, f.Interface, f.Device))
			}
			f.apply(p)
		}
		applyBrokenFabricFaults(states)
	}
	return append(hosts, switchDevices(f, states, latency)...)
}

// build returns a scenario's devices: hosts first, then switches.
func build(scenario string, latency time.Duration) ([]*device, error) {
	switch scenario {
	case ScenarioHealthy:
		return withSwitches(fixedFabric(), scenario, healthy(), latency), nil
	case ScenarioBroken:
		return withSwitches(brokenFabric(), scenario, broken(), latency), nil
	case ScenarioDeadlock:
		return withSwitches(deadlockFabric(), scenario, healthy(), latency), nil
	case ScenarioHostVariants:
		return hostVariants(latency), nil
	case ScenarioECMPPolarized:
		return ecmpPolarized(latency), nil
	}
	if v, ok := vendorScenarios[scenario]; ok {
		return v.build(latency), nil
	}
	return nil, fmt.Errorf("unknown lab scenario %q (expected one of %v)", scenario, Scenarios())
}
