package eos

import "github.com/roceaudit/roceaudit/lab/switchstate"

// DesignRoCE is switchstate.Switch.Design for Arista's RoCE configuration as AVD renders its
// syntax and a published EOS 4.36 RoCE profile writes it (the third-party post "Arista_EOS_RoCEv2_Lossless_Config"):
// profile ROCE-LEAF with the PFC lines and uc-tx-queue blocks (`no priority` and `bandwidth
// percent` on each weighted queue, ECN 256/512 KB at probability 100 weight 0), the interface
// routed with `qos trust dscp` and the service-profile, and `random-detect ecn count` on the
// interface's marking queue.
const DesignRoCE = "arista-roce"

// spelling is how the running configuration names and places what the state leaves open.
type spelling struct {
	profile    string
	queue      string // tx-queue | uc-tx-queue
	ecn        string // the WRED-ECN profile of a marking queue
	trustOnIf  bool   // qos trust is written on the interface, not in the profile
	routed     bool   // interfaces carry `no switchport`
	ecnCount   bool   // the interface counts ECN marks on its marking queues
	perWeighed bool   // `no priority` on every weighted queue, not only below the strict ones
}

func spellingOf(sw *switchstate.Switch) spelling {
	if sw.Design == DesignRoCE {
		return spelling{profile: "ROCE-LEAF", queue: "uc-tx-queue",
			ecn:       "random-detect ecn minimum-threshold 256 kbytes maximum-threshold 512 kbytes max-mark-probability 100 weight 0",
			trustOnIf: true, routed: true, ecnCount: true, perWeighed: true}
	}
	// The lab's own (AVD / ROCm guide syntax).
	return spelling{profile: Profile, queue: "tx-queue",
		ecn: "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 20"}
}
