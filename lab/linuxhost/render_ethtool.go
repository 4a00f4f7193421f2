package linuxhost

import (
	"fmt"
	"strconv"
	"strings"
)

// ethtoolNoDev is ethtool's netlink answer for a name that matches no device.
const ethtoolNoDev = "netlink error: no device matches name (offset 24)\nnetlink error: No such device\n"

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// renderEthtoolPause is `ethtool -a IF` (ethtool netlink/pause.c), including
// the blank line the tool ends with. Negotiated lines only appear with autoneg on.
func (h *Host) renderEthtoolPause(ifname string) (string, string, int) {
	n := h.Netdev(ifname)
	switch {
	case n == nil:
		return "", ethtoolNoDev, 1
	case n.Eth == nil:
		return "", "netlink error: Operation not supported\n", 1
	}
	e := n.Eth
	var b strings.Builder
	fmt.Fprintf(&b, "Pause parameters for %s:\n", ifname)
	fmt.Fprintf(&b, "Autonegotiate:\t%s\n", onOff(e.PauseAutoneg))
	fmt.Fprintf(&b, "RX:\t\t%s\n", onOff(e.PauseRX))
	fmt.Fprintf(&b, "TX:\t\t%s\n", onOff(e.PauseTX))
	if e.PauseAutoneg {
		fmt.Fprintf(&b, "RX negotiated: %s\nTX negotiated: %s\n", onOff(e.PauseRX), onOff(e.PauseTX))
	}
	b.WriteString("\n")
	return b.String(), "", 0
}

// Stat names of an mlx5 netdev in the driver's order (mlx5 en_stats.c).
var (
	statsHead = []string{
		"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "tx_tso_packets", "tx_tso_bytes",
		"tx_tso_inner_packets", "tx_tso_inner_bytes", "tx_added_vlan_packets", "tx_nop",
		"rx_lro_packets", "rx_lro_bytes", "rx_ecn_mark", "rx_removed_vlan_packets",
		"rx_csum_unnecessary", "rx_csum_none", "rx_csum_complete", "rx_csum_unnecessary_inner",
		"rx_xdp_drop", "rx_xdp_redirect", "tx_csum_partial", "tx_csum_partial_inner",
		"tx_queue_stopped", "tx_queue_dropped", "tx_xmit_more", "tx_recover", "tx_cqes",
		"tx_queue_wake", "tx_cqe_err", "rx_wqe_err", "rx_mpwqe_filler_cqes", "rx_buff_alloc_err",
		"rx_cqe_compress_blks", "rx_cqe_compress_pkts", "rx_congst_umr", "rx_arfs_err",
		"ch_events", "ch_poll", "ch_arm", "ch_aff_change", "ch_eq_rearm",
		"rx_out_of_buffer", "rx_if_down_packets", "rx_steer_missed_packets",
		"rx_vport_unicast_packets", "rx_vport_unicast_bytes", "tx_vport_unicast_packets",
		"tx_vport_unicast_bytes", "rx_vport_multicast_packets", "rx_vport_multicast_bytes",
		"tx_vport_multicast_packets", "tx_vport_multicast_bytes", "rx_vport_broadcast_packets",
		"rx_vport_broadcast_bytes", "tx_vport_broadcast_packets", "tx_vport_broadcast_bytes",
		"rx_vport_rdma_unicast_packets", "rx_vport_rdma_unicast_bytes",
		"tx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes",
		"rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes",
		"tx_vport_rdma_multicast_packets", "tx_vport_rdma_multicast_bytes",
		"tx_packets_phy", "rx_packets_phy", "rx_crc_errors_phy", "tx_bytes_phy", "rx_bytes_phy",
		"tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy",
		"rx_in_range_len_errors_phy", "rx_out_of_range_len_phy", "rx_oversize_pkts_phy",
		"rx_symbol_err_phy", "tx_mac_control_phy", "rx_mac_control_phy", "rx_unsupported_op_phy",
		"rx_pause_ctrl_phy", "tx_pause_ctrl_phy", "rx_discards_phy", "tx_discards_phy",
		"tx_errors_phy", "rx_undersize_pkts_phy", "rx_fragments_phy", "rx_jabbers_phy",
		"rx_64_bytes_phy", "rx_65_to_127_bytes_phy", "rx_128_to_255_bytes_phy",
		"rx_256_to_511_bytes_phy", "rx_512_to_1023_bytes_phy", "rx_1024_to_1518_bytes_phy",
		"rx_1519_to_2047_bytes_phy", "rx_2048_to_4095_bytes_phy", "rx_4096_to_8191_bytes_phy",
		"rx_8192_to_10239_bytes_phy", "link_down_events_phy", "rx_pcs_symbol_err_phy",
		"rx_corrected_bits_phy", "rx_err_lane_0_phy", "rx_err_lane_1_phy", "rx_err_lane_2_phy",
		"rx_err_lane_3_phy", "rx_buffer_passed_thres_phy",
	}
	statsTail = []string{
		"tx_pause_storm_warning_events", "tx_pause_storm_error_events", "module_unplug",
		"module_bus_stuck", "module_high_temp", "module_bad_shorted",
		"rx_pci_signal_integrity", "tx_pci_signal_integrity",
		"outbound_pci_stalled_rd", "outbound_pci_stalled_wr",
		"outbound_pci_stalled_rd_events", "outbound_pci_stalled_wr_events",
		"ch0_events", "ch0_poll", "ch0_arm", "ch0_aff_change", "ch0_eq_rearm",
		"ch1_events", "ch1_poll", "ch1_arm", "ch1_aff_change", "ch1_eq_rearm",
		"rx0_packets", "rx0_bytes", "rx0_csum_complete", "rx0_csum_unnecessary", "rx0_csum_none",
		"rx0_xdp_drop", "rx0_lro_packets", "rx0_lro_bytes", "rx0_removed_vlan_packets",
		"rx0_wqe_err", "rx0_buff_alloc_err", "rx0_congst_umr",
		"rx1_packets", "rx1_bytes", "rx1_csum_complete", "rx1_csum_unnecessary", "rx1_csum_none",
		"rx1_xdp_drop", "rx1_lro_packets", "rx1_lro_bytes", "rx1_removed_vlan_packets",
		"rx1_wqe_err", "rx1_buff_alloc_err", "rx1_congst_umr",
		"tx0_packets", "tx0_bytes", "tx0_tso_packets", "tx0_tso_bytes", "tx0_csum_partial",
		"tx0_nop", "tx0_stopped", "tx0_dropped", "tx0_xmit_more", "tx0_recover", "tx0_cqes",
		"tx0_wake", "tx0_cqe_err",
		"tx1_packets", "tx1_bytes", "tx1_tso_packets", "tx1_tso_bytes", "tx1_csum_partial",
		"tx1_nop", "tx1_stopped", "tx1_dropped", "tx1_xmit_more", "tx1_recover", "tx1_cqes",
		"tx1_wake", "tx1_cqe_err",
	}
)

// StatNames lists the ethtool -S counters a port shows, in order. Per-priority PFC counters
// exist only for PFC-enabled priorities, and global pause counters only while link pause is
// on (mlx5e_grp_per_prio_pfc in en_stats.c): their absence is itself a signal.
func (e *EthPort) StatNames() []string {
	names := make([]string, 0, len(statsHead)+len(prioStats)*5+len(pfcStats)*5+len(globalPauseStats)+len(statsTail))
	names = append(names, statsHead...)
	for _, p := range prioStats {
		names = append(names, p[:]...)
	}
	for prio, on := range e.PFC {
		if on {
			names = append(names, pfcStats[prio][:]...)
		}
	}
	if e.PauseRX || e.PauseTX {
		names = append(names, globalPauseStats...)
	}
	return append(names, statsTail...)
}

var globalPauseStats = []string{"rx_global_pause", "rx_global_pause_duration", "tx_global_pause",
	"tx_global_pause_duration", "rx_global_pause_transition"}

// prioStats and pfcStats are the per-priority names, spelled once rather than by Sprintf on
// every ethtool -S (fmt was most of its cost).
var prioStats, pfcStats = func() (prio, pfc [8][5]string) {
	for p := range 8 {
		prio[p] = [5]string{fmt.Sprintf("rx_prio%d_bytes", p), fmt.Sprintf("rx_prio%d_packets", p),
			fmt.Sprintf("rx_prio%d_discards", p), fmt.Sprintf("tx_prio%d_bytes", p),
			fmt.Sprintf("tx_prio%d_packets", p)}
		pfc[p] = [5]string{fmt.Sprintf("rx_prio%d_pause", p), fmt.Sprintf("rx_prio%d_pause_duration", p),
			fmt.Sprintf("tx_prio%d_pause", p), fmt.Sprintf("tx_prio%d_pause_duration", p),
			fmt.Sprintf("rx_prio%d_pause_transition", p)}
	}
	return prio, pfc
}()

// renderEthtoolStats is `ethtool -S IF`: "NIC statistics:" then "     name: value".
func (h *Host) renderEthtoolStats(ifname string) (string, string, int) {
	n := h.Netdev(ifname)
	switch {
	case n == nil:
		return "", "Cannot get stats strings information: No such device\n", 96
	case n.Eth == nil:
		return "", "no stats available\n", 94
	}
	names := n.Eth.StatNames()
	b := make([]byte, 0, 16+len(names)*48)
	b = append(b, "NIC statistics:\n"...)
	for _, name := range names {
		b = append(b, "     "...)
		b = append(b, name...)
		b = append(b, ": "...)
		b = strconv.AppendUint(b, n.Eth.Stats[name], 10)
		b = append(b, '\n')
	}
	return string(b), "", 0
}
