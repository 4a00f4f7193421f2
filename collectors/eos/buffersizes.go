package eos

import (
	"strconv"
	"strings"

	"github.com/roceaudit/roceaudit/topology"
)

// noBufferSizes is why SW-HEADROOM and SW-ECN-PFC-ORDER skip on this platform.
const noBufferSizes = "the EOS running-config shows no per-priority headroom (xoff) or PFC-trigger sizes: EOS reserves PFC headroom itself for each no-drop priority"

// noPFCTrigger is why SW-ECN-PFC-ORDER skips on a port whose ECN thresholds were read: EOS
// states where ECN marks, but not where its no-drop priority sends XOFF.
const noPFCTrigger = "but the running-config shows no PFC-trigger size to compare them with: EOS reserves PFC headroom itself for each no-drop priority"

// ecnOrderFact says, for SW-ECN-PFC-ORDER, which ECN thresholds the port's tx-queues have and
// that there is no PFC trigger to order them against; a port without ECN keeps the platform's
// reason (the zero fact, filled by switchcollect).
func ecnOrderFact(eff Effective) topology.Fact[topology.ECNOrder] {
	var lines []string
	for q := range 8 { // tx-queues are 0-7 (QoS.apply refuses others), in order
		if t := eff.TxQueues[q]; t != nil && t.ECNLine != "" {
			lines = append(lines, "tx-queue "+strconv.Itoa(q)+": "+t.ECNLine)
		}
	}
	if len(lines) == 0 {
		return topology.Fact[topology.ECNOrder]{}
	}
	return topology.Unsupported(topology.ECNOrder{}, "ECN thresholds are configured ("+strings.Join(lines, "; ")+") "+noPFCTrigger,
		ev(CmdRunningConfig, strings.Join(lines, "\n")))
}
