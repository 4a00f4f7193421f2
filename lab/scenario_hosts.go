package lab

import (
	"fmt"
	"time"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// ScenarioHostVariants is a fleet of host shapes real deployments mix, on a healthy fabric
// (leaf1 SONiC and leaf2 Cumulus as an MLAG-like pair, spine1 NX-OS): ordinary dual-port
// hosts (gpu01, gpu02), a RoCE LAG host whose slave PFs face the two leaves (gpu03), a host
// without systemd (gpu04), a host whose applications take their traffic class from the login
// environment (gpu05) and an 8-rail host, one 400G NIC per GPU (gpu06). Each special host
// carries one planted fault (hostVariantFaults); the ordinary gpu02 carries two host-side
// ones the fabric shows: an untuned pause-storm timeout on its first NIC (LINK-PFC-STORM) and a
// slow receiver on its second, which pauses the transfer into it (XFER-PAUSE).
const ScenarioHostVariants = "host-variants"

// hostVariantHosts is the number of hosts of the scenario; the last is the rail host.
const hostVariantHosts = 6

// railHostRails is the rail host's rail count; its rails alternate between the leaves.
const railHostRails = 8

// hostVariantFaults are the planted faults, each on the host shape it tests.
var hostVariantFaults = []fault{
	{Fault: Fault{"gpu03", linuxhost.Port1, "HOST-PFC", "slave PF of RoCE LAG bond0 with PFC on priority 4 instead of 3"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port1).Eth.PFC = [8]bool{4: true} }},
	{Fault: Fault{"gpu04", "", "HOST-DCBX", "no systemd, lldpad running (found by pgrep) next to OS-controlled DCB"},
		apply: func(h *linuxhost.Host) { h.LLDPadActive = true }},
	{Fault: Fault{"gpu05", "", "HOST-APP-TC", "/etc/environment sets NCCL_IB_TC=0"},
		apply: func(h *linuxhost.Host) {
			h.Files["/etc/environment"] = "PATH=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin\"\nNCCL_IB_TC=0\n"
		}},
	{Fault: Fault{"gpu06", linuxhost.RailNetdev(2), "HOST-MTU", "rail 3 left at MTU 1500"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.RailNetdev(2)).MTU = 1500 }},
	// An untuned NIC on a tuned fabric: 8000 ms against leaf1's 200 ms SONiC watchdog.
	{Fault: Fault{"gpu02", linuxhost.Port0, "LINK-PFC-STORM", "pfc-prevention-tout left at the mlx5 driver's 8000 ms, facing leaf1's 200 ms PFC watchdog"},
		apply: func(h *linuxhost.Host) {
			h.Netdev(linuxhost.Port0).Eth.PFCPreventionMs = linuxhost.MLX5DriverDefaultPFCPreventionMs
		}},
	// A NIC never told its cable: mlx5 sizes its receive headroom for 7 m on leaf1's 40 m cable.
	{Fault: Fault{"gpu01", linuxhost.Port0, "SW-HEADROOM", "mlnx_qos Cable len left at the mlx5 default 7 m on a cable leaf1 sizes for 40 m"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Eth.CableLen = linuxhost.MLX5DefaultCableM }},
	// A receiver that cannot drain a fifth of the time: it pauses the rail host's transfer
	// into it, and the pause spreads back through leaf2, spine1 and leaf1 to the sender.
	{Fault: Fault{"gpu02", linuxhost.Port1, "XFER-PAUSE", "slow receiver: the NIC cannot drain 20% of a transfer and pauses priority 3 for it"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port1).Eth.SlowReceiverShare = 0.2 }},
}

// hostVariantShapes make the healthy shape of each special host.
var hostVariantShapes = map[string]func(h *linuxhost.Host){
	"gpu03": func(h *linuxhost.Host) {
		if err := h.MakeRoCELAG("bond0", linuxhost.Port0, linuxhost.Port1); err != nil {
			panic(err) // the standard profile always has both PFs
		}
	},
	"gpu04": func(h *linuxhost.Host) { h.NoSystemd = true },
	"gpu05": noTrafficClassOverride,
}

// noTrafficClassOverride leaves out the MLNX_OFED traffic_class override: RDMA-CM connections
// take default_roce_tos (106, set in configfs), NCCL's queue pairs whatever NCCL_IB_TC says.
func noTrafficClassOverride(h *linuxhost.Host) {
	for _, d := range h.RDMA {
		for _, p := range d.Ports {
			tos := 106
			p.TrafficClass, p.DefaultRoCEToS = "", &tos
		}
	}
}

// hostVariantDevices are the scenario's hosts with their shapes and faults.
func hostVariantDevices() []*device {
	var ds []*device
	for n := 1; n < hostVariantHosts; n++ {
		d := gpu(n)
		if shape := hostVariantShapes[d.name]; shape != nil {
			shape(d.host)
		}
		ds = append(ds, d)
	}
	name := fmt.Sprintf("gpu%02d", hostVariantHosts)
	rail := linuxhost.NewRailHost(name, hostVariantHosts, railHostRails)
	ds = append(ds, &device{name: name, platform: "linux", dev: rail, host: rail})
	for _, f := range hostVariantFaults {
		deviceNamed(ds, f.Device, "host-variants fault on", "the scenario's hosts").host.Update(f.apply)
	}
	return ds
}

// hostVariantFabric cables the dual-port hosts' port 0 to leaf1 and port 1 to leaf2 (the LAG
// host's slaves too), the rail host's even rails to leaf1 and odd rails to leaf2, and each
// leaf's last port to spine1.
func hostVariantFabric() fabric {
	spec := func(name, platform string) switchSpec {
		p := platformProfiles[platform]
		return switchSpec{name: name, platform: platform, model: p.model, version: p.version, mtu: p.mtu}
	}
	f := fabric{switches: []switchSpec{spec("leaf1", "sonic"), spec("leaf2", "cumulus"), spec("spine1", "nxos")}}
	plug := func(i int) end {
		s := &f.switches[i]
		port := platformProfiles[s.platform].port(len(s.ports))
		s.ports = append(s.ports, port)
		return end{s.name, port}
	}
	for n := 1; n < hostVariantHosts; n++ {
		host := fmt.Sprintf("gpu%02d", n)
		f.cables = append(f.cables, [2]end{{host, linuxhost.Port0}, plug(0)}, [2]end{{host, linuxhost.Port1}, plug(1)})
	}
	for r := range railHostRails {
		f.cables = append(f.cables, [2]end{{fmt.Sprintf("gpu%02d", hostVariantHosts), linuxhost.RailNetdev(r)}, plug(r % 2)})
	}
	for l := range 2 {
		f.cables = append(f.cables, [2]end{plug(l), plug(2)})
	}
	return f
}

// hostVariants are the scenario's devices: hosts, then the healthy switches.
func hostVariants(latency time.Duration) []*device {
	return withSwitches(hostVariantFabric(), ScenarioHostVariants, hostVariantDevices(), latency)
}

// hostVariantPaths: two ordinary hosts on leaf1, and the rail host's first rail (400G) to an
// ordinary host's port 1 through spine1 and leaf2.
func hostVariantPaths() [][2]string {
	return [][2]string{
		{"gpu01:" + linuxhost.Port0, "gpu02:" + linuxhost.Port0},
		{"gpu06:" + linuxhost.RailNetdev(0), "gpu02:" + linuxhost.Port1},
	}
}

func hostVariantDeclaredLinks() [][2]string {
	return [][2]string{{"gpu01:" + linuxhost.Port0, "leaf1:Ethernet0"}}
}

// hostVariantFaultList is Faults(ScenarioHostVariants).
func hostVariantFaultList() []Fault {
	out := make([]Fault, 0, len(hostVariantFaults))
	for _, f := range hostVariantFaults {
		out = append(out, f.Fault)
	}
	return out
}
