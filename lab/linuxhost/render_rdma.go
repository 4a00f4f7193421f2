package linuxhost

import (
	"fmt"
	"strconv"
	"strings"
)

// renderRdmaLink is `rdma link show` (iproute2 rdma/link.c), one line per port.
func (h *Host) renderRdmaLink() string {
	var b strings.Builder
	for _, d := range h.RDMA {
		for _, p := range d.Ports {
			v := h.view(p)
			fmt.Fprintf(&b, "link %s/%d state %s physical_state %s netdev %s\n", d.Name, p.Num, v.rdmaState, v.rdmaPhys, p.Netdev)
		}
	}
	return b.String()
}

// guid is a GUID as ibv_devinfo prints it: four groups of four hex digits.
func guid(g uint64) string {
	return fmt.Sprintf("%04x:%04x:%04x:%04x", g>>48&0xffff, g>>32&0xffff, g>>16&0xffff, g&0xffff)
}

// renderIbvDevinfo is `ibv_devinfo -v` (rdma-core libibverbs/examples/devinfo.c, current
// format with typed GIDs, rdma-core v29+). The TABs are the tool's own.
func (h *Host) renderIbvDevinfo() string {
	var b strings.Builder
	for _, d := range h.RDMA {
		fmt.Fprintf(&b, "hca_id:\t%s\n", d.Name)
		fmt.Fprintf(&b, "\ttransport:\t\t\tInfiniBand (0)\n")
		fmt.Fprintf(&b, "\tfw_ver:\t\t\t\t%s\n", d.FWVer)
		fmt.Fprintf(&b, "\tnode_guid:\t\t\t%s\n", guid(d.NodeGUID))
		fmt.Fprintf(&b, "\tsys_image_guid:\t\t\t%s\n", guid(d.SysImageGUID))
		fmt.Fprintf(&b, "\tvendor_id:\t\t\t0x02c9\n")
		fmt.Fprintf(&b, "\tvendor_part_id:\t\t\t%d\n", d.PartID)
		fmt.Fprintf(&b, "\thw_ver:\t\t\t\t0x0\n")
		fmt.Fprintf(&b, "\tboard_id:\t\t\t%s\n", d.BoardID)
		fmt.Fprintf(&b, "\tphys_port_cnt:\t\t\t%d\n", len(d.Ports))
		b.WriteString(devinfoVerboseDevice)
		for _, p := range d.Ports {
			h.writeDevinfoPort(&b, p)
		}
	}
	return b.String()
}

func (h *Host) writeDevinfoPort(b *strings.Builder, p *RDMAPort) {
	v := h.view(p)
	// Appended rather than printed with fmt: ibv_devinfo was a tenth of a host's tool time.
	b.WriteString("\t\tport:\t" + strconv.Itoa(p.Num) + "\n")
	b.WriteString("\t\t\tstate:\t\t\t" + v.state + " (" + strconv.Itoa(v.stateCode) + ")\n")
	b.WriteString("\t\t\tmax_mtu:\t\t" + strconv.Itoa(p.MaxMTU) + " (" + strconv.Itoa(ibMTUCode(p.MaxMTU)) + ")\n")
	b.WriteString("\t\t\tactive_mtu:\t\t" + strconv.Itoa(v.activeMTU) + " (" + strconv.Itoa(ibMTUCode(v.activeMTU)) + ")\n")
	b.WriteString("\t\t\tsm_lid:\t\t\t0\n\t\t\tport_lid:\t\t0\n\t\t\tport_lmc:\t\t0x00\n")
	b.WriteString("\t\t\tlink_layer:\t\tEthernet\n")
	b.WriteString("\t\t\tmax_msg_sz:\t\t0x40000000\n")
	b.WriteString("\t\t\tport_cap_flags:\t\t0x04010000\n")
	b.WriteString("\t\t\tport_cap_flags2:\t0x0000\n")
	b.WriteString("\t\t\tmax_vl_num:\t\tinvalid value (0)\n")
	b.WriteString("\t\t\tbad_pkey_cntr:\t\t0x0\n\t\t\tqkey_viol_cntr:\t\t0x0\n\t\t\tsm_sl:\t\t\t0\n")
	b.WriteString("\t\t\tpkey_tbl_len:\t\t1\n")
	b.WriteString("\t\t\tgid_tbl_len:\t\t" + strconv.Itoa(p.GIDTableLen) + "\n")
	b.WriteString("\t\t\tsubnet_timeout:\t\t0\n\t\t\tinit_type_reply:\t0\n")
	b.WriteString("\t\t\tactive_width:\t\t" + strconv.Itoa(widthOf(v.widthCode)) + "X (" + strconv.Itoa(v.widthCode) + ")\n")
	b.WriteString("\t\t\tactive_speed:\t\t" + v.speedText + " (" + strconv.Itoa(v.speedCode) + ")\n")
	b.WriteString("\t\t\tphys_state:\t\t" + v.physState + " (" + strconv.Itoa(v.physStateCode) + ")\n")
	for _, e := range h.GIDTable(p) {
		idx := strconv.Itoa(e.Index) // %3d
		b.WriteString("\t\t\tGID[" + "   "[min(len(idx), 3):] + idx + "]:\t\t")
		// RoCE v1 entries print raw; v2 entries go through inet_ntop (compressed form).
		if e.Type == GIDTypeV2 {
			b.WriteString(e.Addr.String() + ", RoCE v2\n")
		} else {
			b.WriteString(sysfsGID(e.Addr) + ", RoCE v1\n")
		}
	}
	b.WriteString("\n")
}

func widthOf(code int) int {
	for lanes, c := range widthCodes {
		if c == code {
			return lanes
		}
	}
	return 0
}

// devinfoVerboseDevice is the -v device section of a ConnectX-6 Dx (rdma-core devinfo.c
// print_hca_cap); it does not vary with the emulated state.
const devinfoVerboseDevice = "\tmax_mr_size:\t\t\t0xffffffffffffffff\n" +
	"\tpage_size_cap:\t\t\t0xfffffffffffff000\n" +
	"\tmax_qp:\t\t\t\t131072\n" +
	"\tmax_qp_wr:\t\t\t32768\n" +
	"\tdevice_cap_flags:\t\t0x21361c36\n" +
	"\t\t\t\t\tBAD_PKEY_CNTR\n" +
	"\t\t\t\t\tBAD_QKEY_CNTR\n" +
	"\t\t\t\t\tAUTO_PATH_MIG\n" +
	"\t\t\t\t\tCHANGE_PHY_PORT\n" +
	"\t\t\t\t\tPORT_ACTIVE_EVENT\n" +
	"\t\t\t\t\tSYS_IMAGE_GUID\n" +
	"\t\t\t\t\tRC_RNR_NAK_GEN\n" +
	"\t\t\t\t\tMEM_WINDOW\n" +
	"\t\t\t\t\tUD_IP_CSUM\n" +
	"\t\t\t\t\tXRC\n" +
	"\t\t\t\t\tMEM_MGT_EXTENSIONS\n" +
	"\t\t\t\t\tMEM_WINDOW_TYPE_2B\n" +
	"\t\t\t\t\tMANAGED_FLOW_STEERING\n" +
	"\tmax_sge:\t\t\t30\n" +
	"\tmax_sge_rd:\t\t\t30\n" +
	"\tmax_cq:\t\t\t\t16777216\n" +
	"\tmax_cqe:\t\t\t4194303\n" +
	"\tmax_mr:\t\t\t\t16777216\n" +
	"\tmax_pd:\t\t\t\t8388608\n" +
	"\tmax_qp_rd_atom:\t\t\t16\n" +
	"\tmax_ee_rd_atom:\t\t\t0\n" +
	"\tmax_res_rd_atom:\t\t2097152\n" +
	"\tmax_qp_init_rd_atom:\t\t16\n" +
	"\tmax_ee_init_rd_atom:\t\t0\n" +
	"\tatomic_cap:\t\t\tATOMIC_HCA (1)\n" +
	"\tmax_ee:\t\t\t\t0\n" +
	"\tmax_rdd:\t\t\t0\n" +
	"\tmax_mw:\t\t\t\t16777216\n" +
	"\tmax_raw_ipv6_qp:\t\t0\n" +
	"\tmax_raw_ethy_qp:\t\t0\n" +
	"\tmax_mcast_grp:\t\t\t2097152\n" +
	"\tmax_mcast_qp_attach:\t\t240\n" +
	"\tmax_total_mcast_qp_attach:\t503316480\n" +
	"\tmax_ah:\t\t\t\t2147483647\n" +
	"\tmax_fmr:\t\t\t0\n" +
	"\tmax_srq:\t\t\t8388608\n" +
	"\tmax_srq_wr:\t\t\t32767\n" +
	"\tmax_srq_sge:\t\t\t31\n" +
	"\tmax_pkeys:\t\t\t128\n" +
	"\tlocal_ca_ack_delay:\t\t16\n" +
	"\tgeneral_odp_caps:\n" +
	"\t\t\t\t\tODP_SUPPORT\n" +
	"\t\t\t\t\tODP_SUPPORT_IMPLICIT\n" +
	"\trc_odp_caps:\n" +
	"\t\t\t\t\tSUPPORT_SEND\n" +
	"\t\t\t\t\tSUPPORT_RECV\n" +
	"\t\t\t\t\tSUPPORT_WRITE\n" +
	"\t\t\t\t\tSUPPORT_READ\n" +
	"\t\t\t\t\tSUPPORT_ATOMIC\n" +
	"\t\t\t\t\tSUPPORT_SRQ\n" +
	"\tuc_odp_caps:\n" +
	"\t\t\t\t\tNO SUPPORT\n" +
	"\tud_odp_caps:\n" +
	"\t\t\t\t\tSUPPORT_SEND\n" +
	"\txrc_odp_caps:\n" +
	"\t\t\t\t\tSUPPORT_SEND\n" +
	"\t\t\t\t\tSUPPORT_WRITE\n" +
	"\t\t\t\t\tSUPPORT_READ\n" +
	"\t\t\t\t\tSUPPORT_ATOMIC\n" +
	"\t\t\t\t\tSUPPORT_SRQ\n" +
	"\tcompletion timestamp_mask:\t\t\t0x7fffffffffffffff\n" +
	"\thca_core_clock:\t\t\t156250kHZ\n" +
	"\traw packet caps:\n" +
	"\t\t\t\t\tC-VLAN stripping offload\n" +
	"\t\t\t\t\tScatter FCS offload\n" +
	"\t\t\t\t\tIP csum offload\n" +
	"\t\t\t\t\tDelay drop\n" +
	"\tdevice_cap_flags_ex:\t\t0x30000051361C36\n" +
	"\t\t\t\t\tRAW_SCATTER_FCS\n" +
	"\t\t\t\t\tPCI_WRITE_END_PADDING\n" +
	"\t\t\t\t\tUnknown flags: 0x3000004000000000\n" +
	"\ttso_caps:\n" +
	"\tmax_tso:\t\t\t262144\n" +
	"\tsupported_qp:\n" +
	"\t\t\t\t\tSUPPORT_RAW_PACKET\n" +
	"\trss_caps:\n" +
	"\t\tmax_rwq_indirection_tables:\t\t\t65536\n" +
	"\t\tmax_rwq_indirection_table_size:\t\t\t2048\n" +
	"\t\trx_hash_function:\t\t\t\t0x1\n" +
	"\t\trx_hash_fields_mask:\t\t\t\t0x800000FF\n" +
	"\t\tsupported_qp:\n" +
	"\t\t\t\t\tSUPPORT_RAW_PACKET\n" +
	"\tmax_wq_type_rq:\t\t\t8388608\n" +
	"\tpacket_pacing_caps:\n" +
	"\t\tqp_rate_limit_min:\t1kbps\n" +
	"\t\tqp_rate_limit_max:\t100000000kbps\n" +
	"\t\tsupported_qp:\n" +
	"\t\t\t\t\tSUPPORT_RAW_PACKET\n" +
	"\ttag matching not supported\n" +
	"\n" +
	"\tcq moderation caps:\n" +
	"\t\tmax_cq_count:\t65535\n" +
	"\t\tmax_cq_period:\t4095 us\n" +
	"\n" +
	"\tmaximum available device memory:\t131072Bytes\n" +
	"\n"
