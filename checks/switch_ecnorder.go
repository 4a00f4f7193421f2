package checks

import (
	"fmt"
	"strconv"

	"github.com/roceaudit/roceaudit/buffers"
	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// swECNPFCOrder: DCQCN must react (ECN marks, CNPs slow the senders) before PFC pauses, or the
// fabric runs on pause alone.
func swECNPFCOrder() *Check {
	return &Check{
		ID: "SW-ECN-PFC-ORDER", Title: "the RoCE queue's ECN minimum threshold sits below the point where PFC triggers",
		Scope: ScopeSwitchPort, Severity: Warning,
		Rationale: "ECN must mark before PFC pauses, so DCQCN slows the senders and pause stays the last resort; " +
			"if the RoCE queue's WRED/ECN minimum threshold (Kmin) is at or above the bytes the RoCE priority " +
			"group may hold before it sends XOFF, the port pauses first and pause spreads upstream. The trigger " +
			"compared is the group's reserved buffer plus the largest shared-pool share its dynamic threshold " +
			"allows (alpha/(1+alpha) of the pool): the most favourable case, so a failure here fails under any load " +
			"(one sender to one receiver puts the same bytes in the ingress group and the egress queue).",
		Sources: []string{"SONiC WRED_PROFILE green_min_threshold, QUEUE wred_profile, BUFFER_PROFILE size/xoff/dynamic_th, BUFFER_POOL size",
			"SONiC buffer model: dynamic_th is log2(alpha), share = alpha/(1+alpha) x free buffer (sonic-net/SONiC doc/qos/dynamically-headroom-calculation.md)",
			"DCQCN, SIGCOMM 2015: ECN thresholds below the PFC threshold"},
		Expected: func(r recipe.Recipe) string {
			return fmt.Sprintf("ECN Kmin on the queue of priority %d < the PFC trigger of its priority group", r.RoCEPriority)
		},
		Hint: "lower the RoCE queue's ECN minimum threshold below the priority group's PFC trigger, or raise the group's dynamic threshold",
		switchPort: func(r recipe.Recipe, _ *topology.Device, p *topology.SwitchPort) verdict {
			pg := p.ClassOf(r.RoCEPriority)
			q := p.QueueOf(pg)
			return switchFact(p.ECNOrder, "ECN and PFC thresholds", func(o topology.ECNOrder) verdict {
				if o.Computed != "" {
					return verdict{status: Pass, actual: "computed by the switch", message: o.Computed}
				}
				ecn, okQ := o.Queues[q]
				pfc, okP := o.PGs[pg]
				switch {
				case !okQ:
					return verdict{status: Skip, actual: fmt.Sprintf("no ECN threshold on queue %d", q), message: "nothing to order (see SW-ECN)"}
				case !okP:
					return verdict{status: Skip, actual: fmt.Sprintf("no lossless profile on priority group %d", pg), message: "nothing to order (see SW-BUFFER)"}
				}
				trigger, how := buffers.PFCTrigger(pfc)
				actual := "queue " + strconv.Itoa(q) + " Kmin " + strconv.FormatInt(ecn.KMin, 10) + " B (" + ecn.Profile + "); priority group " +
					strconv.Itoa(pg) + " PFC trigger " + strconv.FormatInt(trigger, 10) + " B = " + how + " (" + pfc.Profile + ")"
				if ecn.KMin < trigger {
					return verdict{status: Pass, actual: actual}
				}
				return verdict{status: Fail, actual: actual, message: fmt.Sprintf(
					"ECN starts marking %d B after the priority group has already sent XOFF: PFC fires before DCQCN can react", ecn.KMin-trigger)}
			})
		},
	}
}
