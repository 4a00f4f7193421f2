package lab

import (
	"fmt"
	"slices"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
	"github.com/roceaudit/roceaudit/lab/sshd"
	"github.com/roceaudit/roceaudit/lab/switchstate"
)

// The broken scenario's faults for the checks no host-port or switch-port knob of the fixed
// lab can fail on its own: each needs a cable, a path, a fabric-wide setting or a device state
// of its own, so broken adds four hosts, four leaf ports for two of them and an MLAG peer link
// (the deadlock scenario's leaf3 - leaf4 one), and leaves every other fault as it was:
//
//   - gpu11 (port 0 on leaf1, port 1 on leaf2): a slow receiver on port 0, the end of a
//     transfer from gpu01 that stays on leaf1 (XFER-PAUSE), and port 1 the sender of a
//     transfer to gpu12 that leaf2's polarized hash keeps on one spine (XFER-COVERAGE);
//   - gpu12 (port 0 on leaf3, port 1 on leaf4): the mlx5 driver's 8000 ms pause-storm
//     timeout on port 0 against leaf3's EOS watchdog (LINK-PFC-STORM); port 1 is the far end
//     of gpu11's transfer;
//   - gpu13 (cabled to nothing): /etc/environment sets NCCL_IB_TC=0 (HOST-APP-TC on both ports);
//   - gpu14 (cabled to nothing): logs in and answers every command with bytes no parser
//     reads (COLLECT-FACTS), the lab's garbage fault built into the scenario;
//   - leaf3:Ethernet51 - leaf4:Ethernet1/51: a lossless link between two leaves
//     (FABRIC-DEADLOCK warns: with every uplink cabled no cycle forms, but the link can close one).
const (
	brokenPauseHost    = "gpu11" // slow receiver on port 0, coverage sender on port 1
	brokenStormHost    = "gpu12" // storm timeout on port 0, coverage receiver on port 1
	brokenAppTCHost    = "gpu13"
	brokenUnreadHost   = "gpu14"
	brokenPolarizedHop = "leaf2"
)

// brokenSlowReceiverShare is small enough that the transfer keeps ~94% of the link (XFER-BW
// passes at the recipe's 0.9) and large enough to be throttling (XFER-PAUSE warns from 1%).
const brokenSlowReceiverShare = 0.03

// brokenExtraHostPorts cable gpu11 and gpu12 to the next free host port of each leaf.
var brokenExtraHostPorts = [][2]end{
	{{brokenPauseHost, linuxhost.Port0}, {"leaf1", "Ethernet16"}},
	{{brokenPauseHost, linuxhost.Port1}, {"leaf2", "swp5"}},
	{{brokenStormHost, linuxhost.Port0}, {"leaf3", "Ethernet5"}},
	{{brokenStormHost, linuxhost.Port1}, {"leaf4", "Ethernet1/5"}},
}

// brokenPeerLink is the lossless same-tier link.
var brokenPeerLink = deadlockPeerLinks[1]

// brokenExtraFaults are the faults of the extra hosts and links, in device order.
var brokenExtraFaults = []fault{
	{Fault: Fault{brokenPauseHost, linuxhost.Port0, "XFER-PAUSE",
		"slow receiver: the NIC cannot drain 3% of a transfer and pauses priority 3 for it (gpu01 -> gpu11 on leaf1)"},
		apply: func(h *linuxhost.Host) { h.Netdev(linuxhost.Port0).Eth.SlowReceiverShare = brokenSlowReceiverShare }},
	{Fault: Fault{brokenStormHost, linuxhost.Port0, "LINK-PFC-STORM",
		"pfc-prevention-tout left at the mlx5 driver's 8000 ms, facing leaf3's watchdog (50 ms detection, 1100 ms recovery)"},
		apply: func(h *linuxhost.Host) {
			h.Netdev(linuxhost.Port0).Eth.PFCPreventionMs = linuxhost.MLX5DriverDefaultPFCPreventionMs
		}},
	{Fault: Fault{brokenAppTCHost, "", "HOST-APP-TC", "/etc/environment sets NCCL_IB_TC=0"},
		apply: func(h *linuxhost.Host) {
			// Without an OFED traffic_class override, which would decide for NCCL too.
			noTrafficClassOverride(h)
			h.Files["/etc/environment"] = "PATH=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin\"\nNCCL_IB_TC=0\n"
		}},
	{Fault: Fault{brokenUnreadHost, "", "COLLECT-FACTS", "logs in, then answers every command with 4 KiB of random bytes"},
		sshFault: sshd.FaultGarbage},
}

// brokenFabricFaults are the faults of the fabric's wiring and forwarding, not of one port's
// configuration: they are applied to the switch states (applyBrokenFabricFaults).
var brokenFabricFaults = []Fault{
	{brokenPeerLink[0].device, brokenPeerLink[0].port, "FABRIC-DEADLOCK",
		"MLAG peer link leaf3:Ethernet51 - leaf4:Ethernet1/51 with PFC on priority 3, as every lab port"},
	{brokenPolarizedHop, "", "XFER-COVERAGE",
		"ECMP hash on the IP addresses only: every flow of gpu11:ens1f1np1 -> gpu12:ens1f1np1 takes one spine"},
}

// brokenFabric is the fixed fabric plus gpu11's and gpu12's cables and the peer link.
func brokenFabric() fabric {
	return fixedFabric().withCables(append(slices.Clone(brokenExtraHostPorts), brokenPeerLink)...)
}

// brokenExtraHosts are gpu11..gpu14 with their faults applied.
func brokenExtraHosts() []*device {
	var ds []*device
	for n := 11; n <= 14; n++ {
		ds = append(ds, gpu(n))
	}
	for _, f := range brokenExtraFaults {
		d := deviceNamed(ds, f.Device, "broken fault on", "gpu11..gpu14")
		if f.apply != nil {
			f.apply(d.host)
		}
		if f.sshFault != sshd.FaultNone {
			d.fault = f.sshFault
		}
	}
	return ds
}

// applyBrokenFabricFaults polarizes leaf2's ECMP hash (the peer link is in brokenFabric).
func applyBrokenFabricFaults(states map[string]*switchstate.Switch) {
	sw, ok := states[brokenPolarizedHop]
	if !ok {
		panic(fmt.Sprintf("lab: broken fabric has no %s", brokenPolarizedHop))
	}
	sw.ECMPHashIPOnly = true
}

// brokenCoveragePath crosses the polarized leaf2 and a spine to gpu12 on leaf4.
var brokenCoveragePath = [2]string{brokenPauseHost + ":" + linuxhost.Port1, brokenStormHost + ":" + linuxhost.Port1}

// brokenExtraPaths are the transfers the extra faults need: gpu01 into the slow receiver on
// leaf1, and the coverage pair (SweptPaths).
func brokenExtraPaths() [][2]string {
	return [][2]string{{"gpu01:" + linuxhost.Port0, brokenPauseHost + ":" + linuxhost.Port0}, brokenCoveragePath}
}
