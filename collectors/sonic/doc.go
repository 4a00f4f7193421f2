// Package sonic collects the lossless-RoCE state of community SONiC (sonic-net) switches.
//
// Almost everything comes from one structured pull: `show runningconfiguration all`, the
// CONFIG_DB as JSON (sonic-cfggen -d --print-data; on multi-ASIC a dict of namespaces, which
// is merged). SONiC has no `show qos`, so the QoS state is read from the tables themselves:
//
//	Aliases      PORT|<p>.alias when it is not the port's name: lldpmgrd announces the port
//	             by it (LLDP port ID subtype local), so link discovery matches it
//	Speed        PORT|<p>.speed (Mb/s, the configured speed) / 1000; absent: Unknown
//	MTU          PORT|<p>.mtu (absent: portmgrd's default 9100); Kind "frame", Normalized = mtu
//	Trust        "dscp" when a dscp_to_tc_map is bound (PORT_QOS_MAP|<p>, else |global),
//	             "pcp" with only a dot1p_to_tc_map, "both" with both, "none" with neither
//	DSCPToTC     DSCP_TO_TC_MAP[<bound map>] (keys 0..63 -> TC); empty when none is bound
//	TCToQueue    TC_TO_QUEUE_MAP[PORT_QOS_MAP|<p>.tc_to_queue_map]; identity when none is bound
//	PFC          PORT_QOS_MAP|<p>.pfc_enable; with PORT|<p>.pfc_asym=on the port honours
//	             received PFC on every priority (RX 0..7) and sends it on pfc_enable (TX)
//	PFCWatchdog  priority p is watched when PFC_WD|<p> exists, p is in pfc_enable and in
//	             pfcwd_sw_enable (absent: all of pfc_enable, as db_migrator 3.0.4 assumes),
//	             and FLEX_COUNTER_TABLE|PFCWD is not "disable"
//	Pause        not supported (no 802.3x field in sonic-port.yang, no CLI)
//	ECN          queue q marks when QUEUE|<p>|q has a wred_profile whose ecn marks green
//	             packets (ecn_all, ecn_green, ecn_green_yellow, ecn_green_red)
//	Scheduler    SCHEDULER[QUEUE|<p>|q.scheduler].type lower-cased (default WRR); a queue with
//	             no scheduler bound is absent from the map (platform default, not strict)
//	DCBX         not supported (lldpd has no DCBX); Mode "static"
//	Buffer       BUFFER_PG|<p>|<pgs> whose profile has an xoff (or is "NULL": computed by the
//	             dynamic buffer model) are the lossless PGs
//
// Table references are accepted in both forms: "AZURE" (DB 3.0.3 and later) and
// "[DSCP_TO_TC_MAP|AZURE]" (3.0.1 and earlier). Keys may name several ports and queue or PG
// ranges ("Ethernet0,Ethernet4|3-4").
//
// LLDP neighbours come from `show lldp table`, counters from `show pfc counters` and `show
// queue counters`, the NOS string from `show version`. The lldpd JSON of
// `docker exec lldp lldpcli -f json0` is not used: it is unverified on SONiC and needs docker
// rights, while `show lldp table` is the documented, verified form.
//
// Conventions the checks rely on:
//
//   - A fact that could not be read is Unknown; Evidence.Error names the command and why.
//   - A fact the platform cannot express at all is topology.Unsupported with the reason
//     (checks turn it into skip): 802.3x pause and DCBX on community SONiC.
//   - Defaults are facts too, reported Known with an excerpt that says they are defaults.
//
// Counter names (SwitchPort.Counters): pfc_rx_pause_prio<N>, pfc_tx_pause_prio<N> (frames),
// queue<N>_tx_packets, queue<N>_tx_bytes, queue<N>_drops, queue<N>_drop_bytes for unicast
// queues UC<N>; multicast and "ALL" queues get the prefixes mc_queue<N>_ and all_queue<N>_.
package sonic
