// Package rdmaemu emulates perftest on the lab's Linux hosts: `timeout N ib_write_bw|ib_write_lat
// ...` servers and clients that meet over an emulated out-of-band TCP port, and the
// `ss -Htln sport = :P` port check. Results follow from the lab's state: the GIDs, NIC QoS and
// switch ports along the path the flow takes. It is product code of the built-in lab, not a
// test stub; outputs and failure texts are perftest's (its format strings in linux-rdma/perftest src/), so any
// reader of real perftest output reads them the same.
//
// # Rendezvous
//
// A server (no address argument) checks its device, port and GID index as perftest does,
// registers a listener (host, TCP port) that ss then shows, and waits. A client finds the
// host owning the address (any netdev address), takes that listener (perftest accepts one
// client and closes its socket), and drives the run; the server prints its side when the
// client is done. No goroutine is started: each side runs in its own Exec call, and ending
// ctx (the SSH channel closing) ends it at once. Running lists the processes alive.
//
// # The flow
//
// Client netdev = the one bound to the client's -d/-i; server netdev = the one of the
// server's. Path: the fewest-switch paths through the cables whose switch ports are up,
// sorted by hops. The member is chosen hop by hop as switches do: at each switch, among the
// next ports the remaining members leave by, FNV-1a of the 5-tuple (the two endpoints standing
// for their addresses, UDP, source port, 4791) seeded with the switch's name picks one; a
// switch with ECMPHashIPOnly hashes the addresses only. The UDP source port is the kernel's
// rdma_flow_label_to_udp_sport of the client QP's flow label: perftest's --flow_label, else
// the label mlx5 derives from the two QP numbers (rdma_calc_flow_label), which the run's seed
// fixes for the pair and TCP port (Route, RouteFlowLabel). DSCP is the ToS >> 2, where the ToS is OFED's
// global tc/PORT/traffic_class when set, else --tclass. The class is the NIC priority
// (DSCP map under trust dscp, else 0) at hosts and, at each switch, the ingress port's
// DSCP-to-TC map (TC 0 without DSCP trust); queue and priority group are the TC. A cable is
// lossless when its receiving side sends PFC for the class (switch ingress PFCTX, NIC PFC) and
// its sending side honours it (switch egress PFCRX, NIC PFC).
//
// Failures: a RoCE v1 GID on either side, a link-local GID across switches, a port whose MTU
// is below the RoCE frame (IB MTU + 96 + 18, EOS's IP MTU + 18), a receiving netdev MTU below
// IB MTU + 96, or no path: the client's writes are never acknowledged and it reports
// transport retry counter exceeded (status 12). An empty GID slot fails "modify QP to RTR"
// on both sides; GIDs of different IP families fail perftest's GID type check.
//
// # Numbers
//
// write_bw averages 96-97% of the slowest port on the path (host ports: width x lane speed;
// switch ports: speed), scaled for MTUs below 4096; 15-25% when a cable is lossy. write_lat:
// about 1.6 us + 0.17 us per switch typical (2.1 us over three switches), p99 about 1.62x;
// a lossy path keeps the median but its tail reaches tens of microseconds at p99 and
// milliseconds at the maximum. Values vary slightly, deterministically, with the pair and port.
//
// # Counters (all only increase, through Host.Update / Switch.Update, every tick of a run)
//
// Every switch port the flow crosses: in_octets and in_ucast_pkts where it enters, out_octets
// and out_ucast_pkts where it leaves (switchstate's IF-MIB names; frames an egress queue drops
// are not sent). Sender netdev: tx_prio<P>_packets/_bytes, tx_packets_phy, tx_bytes_phy,
// tx_vport_rdma_unicast_*; receiver netdev: the rx_ twins and the frame-size bucket. Receiver
// hw_counters: rx_write_requests. Switch egress: queue<TC>_tx_packets/_bytes; ingress:
// pg<TC>_rx_frames. PFC: from the receiver back to the first lossy cable, every lossless cable
// counts pause frames that fade toward the sender: receiver tx_prio<P>_pause and
// tx_prio<P>_pause_duration, switch ingress pfc_tx_pause_prio<TC> and
// pfc_tx_pause_duration_prio<TC>, switch egress pfc_rx_pause_prio<TC> and
// pfc_rx_pause_duration_prio<TC>, sender rx_prio<P>_pause, _pause_duration, _pause_transition. ECN at the switch egress nearest the
// receiver that marks the class: ecn_marked_packets_tx and queue<TC>_ecn_marked_packets there, np_ecn_marked_roce_packets and
// (NP on) np_cnp_sent on the receiver, rp_cnp_handled (RP on) or rp_cnp_ignored on the sender.
//
// The lossy cable nearest the receiver (congestion builds from the receiver's end, and the
// cables before it never see back-pressure) drops thousands of frames, charged where they
// overflow: queue<TC>_drops and queue<TC>_drop_bytes on a switch egress port that ignores
// pause, else pg<TC>_rx_discard_bytes on the receiving switch port, or rx_prio<P>_discards
// and rx_discards_phy on the receiving NIC. No pause is counted on or upstream of it. Transport
// counters: receiver (responder) out_of_sequence, duplicate_request; sender (requester)
// packet_seq_err, local_ack_timeout_err, roce_adp_retrans, roce_adp_retrans_to,
// roce_slow_restart. A transport failure adds the sender's retries: local_ack_timeout_err
// +8 and req_transport_retries_exceeded +1; its frames count on the switch ports they cross
// before the one that drops them (a port whose MTU they exceed, or the first switch for v1 and
// link-local GIDs).
//
// # Time
//
// One emulated second takes TimeScale of wall time (0.02: `-D 10` returns after 200 ms);
// the numbers printed are those of the full duration. An emulated `timeout N` fires after
// N x TimeScale plus SetupGrace (unscaled: SSH round trips are wall time) and exits 124 with
// no output, as perftest's fully buffered stdout to a pipe is lost when it is killed.
package rdmaemu
