// Package cumulus collects the lossless-RoCE state of NVIDIA Cumulus Linux 5.x switches
// through NVUE (`nv show`), read-only.
//
// NVUE's text output is parsed, not `-o json`: the text forms are documented verbatim by
// NVIDIA for every command used here, while the JSON shape of `nv show qos roce -o json` and
// friends has no published sample (UNVERIFIED). Columns are cut at
// the dash rule, never by line order; operational values win over applied ones.
//
// Commands: `nv show system` (NOS string), `nv show interface lldp` (configured interfaces and
// their LLDP neighbours: the swp rows are the ports audited, unless the inventory names
// interfaces), `nv show qos roce` (is RoCE on, in which mode, the switch-wide maps), then per
// port either the RoCE regime or the generic QoS profiles:
//
//	fact         RoCE enabled                            RoCE disabled
//	Speed        `interface <if> link` speed, operational only (blank on a link that is down:
//	             Unknown); 1G, 25G, 100G ... in Gb/s, 100M as 0.1
//	MTU          `interface <if> link` mtu (operational, else applied); Kind "frame"
//	Trust        roce status trust-mode                  `qos mapping` trust
//	DSCPToTC     `qos roce` DSCP->SP map, port rows      `qos mapping` DSCP->SP table
//	             (roce, cnp) on top
//	TCToQueue    `qos roce` SP->TC map, port rows on top `qos egress-queue-mapping`
//	PFC          roce status pfc-priority, rx/tx-enabled `qos pfc` rx/tx and switch priorities
//	PFCWatchdog  `qos pfc-watchdog` state: on for every priority of the port, or none
//	Pause        `qos link-pause` rx/tx
//	ECN          roce status enabled-tc (congestion-mode ECN)  `qos congestion-control` ECN column
//	Scheduler    `qos roce` SP->TC scheduler-weight,     `qos egress-scheduler` mode
//	             port rows on top
//	Buffer       lossless modes: the switch priorities   PFC off: no lossless PG (known);
//	             of the roce-reserved-ingress pool (or   PFC on: unknown (only RoCE mode
//	             the PFC priorities in the single         reports lossless pools)
//	             shared pool mode); lossy modes: none
//	DCBX         not supported (Cumulus only transmits IEEE DCBX TLVs, never negotiates); Mode "static"
//	Counters     `interface <if> counters qos` (CL 5.5+)
//
// Model mapping: Cumulus classifies DSCP to a switch priority, then maps switch priorities to
// traffic classes, which are the egress queues. So DSCPToTC holds DSCP -> switch priority,
// TCToQueue holds switch priority -> traffic class, and ECN and Scheduler are keyed by traffic
// class. PFC priorities are switch priorities.
//
// Normalization: booleans on/off, enabled/disabled (CL 5.15+), enable/disable and yes/no are
// all accepted; trust l3 -> "dscp", l2 -> "pcp", both and "pcp,dscp" -> "both", port ->
// "none"; schedulers "strict-priority" / "strict priority" / "strict" -> "strict", "DWRR-50%" /
// "dwrr" -> "dwrr"; byte counts "146.48 KB" use KB = 1024 B; "-" is an empty list.
//
// Conventions the checks rely on:
//
//   - A fact that could not be read is Unknown; Evidence.Error names the command and why.
//   - A fact the platform cannot express at all is topology.Unsupported with the reason
//     (checks turn it into skip): DCBX.
//
// Counter names (SwitchPort.Counters): pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N>,
// pfc_rx_pause_duration_prio<N>, pfc_tx_pause_duration_prio<N>, queue<N>_tx_packets,
// queue<N>_tx_bytes, queue<N>_drop_bytes, queue<N>_wred_drops, pg<N>_rx_frames,
// pg<N>_rx_discard_bytes, pg<N>_rx_shared_discard_bytes, and the port table as
// <counter>_rx / <counter>_tx (ecn_marked_packets_tx, pause_frames_rx, ...).
package cumulus
