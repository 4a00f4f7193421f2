package nxos

import "github.com/roceaudit/roceaudit/lab/switchstate"

// DesignAIML is switchstate.Switch.Design for the RoCE configuration of Cisco's AI/ML
// template as a Cisco engineer's script applies it (paregupt/nx-os nxos_config_roce.py): class maps ROCEv2 and CNP (match-any), policies
// QOS_CLASSIFICATION / QOS_EGRESS_PORT / qos_network, class-default set to qos-group 0, a
// network-qos policy of the no-drop class and the default only, the priority queue listed
// last, ECN at 950/3000 KB, the global watchdog line first and the watchdog on every port.
const DesignAIML = "cisco-aiml"

// spelling is how the running configuration names and orders what the state leaves open.
type spelling struct {
	qos, queuing, network string
	match                 string         // class-map match-all | match-any
	classes               map[int]string // class-map name by qos-group (default DSCP-QG<g>)
	classOrder            []int          // qos-groups in the order the qos policy lists them
	classDefault          bool           // the qos policy sets class-default to qos-group 0
	noDropClassesOnly     bool           // network-qos lists the no-drop classes and the default only
	networkFirst          bool           // network-qos and the global watchdog before the class maps
	watchdogFirst         bool
	strictLast            bool   // priority queues after the weighted ones
	portWatchdog          bool   // every port states its watch-dog-interval
	ecn                   string // the WRED-ECN action of a marking queue
}

func spellingOf(sw *switchstate.Switch) spelling {
	if sw.Design == DesignAIML {
		return spelling{qos: "QOS_CLASSIFICATION", queuing: "QOS_EGRESS_PORT", network: "qos_network",
			match: "match-any", classes: map[int]string{3: "ROCEv2", 7: "CNP"}, classOrder: []int{3, 7, 1, 2, 4, 5, 6},
			classDefault: true, noDropClassesOnly: true, networkFirst: true, watchdogFirst: true, strictLast: true, portWatchdog: true,
			ecn: "random-detect minimum-threshold 950 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn"}
	}
	// The lab's own (Azure TOR reference syntax).
	return spelling{qos: QoSPolicy, queuing: QueuingPolicy, network: NetworkPolicy, match: "match-all",
		classOrder: []int{1, 2, 3, 4, 5, 6, 7},
		ecn:        "random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn"}
}
