package linuxhost

import (
	"strconv"
	"strings"
)

// hwCounterNames are the mlx5_ib hw_counters files (drivers/infiniband/hw/mlx5/counters.c)
// of a ConnectX-6 Dx with congestion-control and adaptive-retransmission counters.
var hwCounterNames = []string{
	"duplicate_request", "implied_nak_seq_err", "lifespan", "local_ack_timeout_err",
	"np_cnp_sent", "np_ecn_marked_roce_packets", "out_of_buffer", "out_of_sequence",
	"packet_seq_err", "req_cqe_error", "req_cqe_flush_error", "req_remote_access_errors",
	"req_remote_invalid_request", "req_rnr_retries_exceeded", "req_transport_retries_exceeded",
	"resp_cqe_error", "resp_cqe_flush_error", "resp_local_length_error",
	"resp_remote_access_errors", "rnr_nak_retry_err", "roce_adp_retrans", "roce_adp_retrans_to",
	"roce_slow_restart", "roce_slow_restart_cnps", "roce_slow_restart_trans", "rp_cnp_handled",
	"rp_cnp_ignored", "rx_atomic_requests", "rx_dct_connect", "rx_icrc_encapsulated",
	"rx_read_requests", "rx_write_requests",
}

// HWCounterNames lists the hw_counters a port has.
func HWCounterNames() []string { return append([]string(nil), hwCounterNames...) }

// filesystem renders the files the command set reads, scoped to what the command's words
// (paths and globs) can name: /etc files, RDMA sysfs (GID table, port attributes,
// hw_counters, OFED tc), rdma_cm configfs when created, and netdev sysfs (OFED ecn). Every
// value ends with a newline, as sysfs shows.
func (h *Host) filesystem(words []string) *vfs {
	fs := scopedVFS(words)
	for p, data := range h.Files {
		fs.add(p, data)
	}
	for _, d := range h.RDMA {
		if !fs.wants("/sys/class/infiniband/"+d.Name+"/") && !fs.wants("/sys/kernel/config/rdma_cm/"+d.Name+"/") {
			continue
		}
		for _, p := range d.Ports {
			h.portFiles(fs, d, p)
		}
	}
	for _, n := range h.Netdevs {
		base := "/sys/class/net/" + n.Name + "/"
		if !fs.wants(base) {
			continue
		}
		fs.add(base+"mtu", strconv.Itoa(n.MTU)+"\n")
		fs.add(base+"operstate", strings.ToLower(n.OperState())+"\n")
		fs.add(base+"address", n.MAC.String()+"\n")
		if n.Eth != nil && h.OFED {
			ecnFiles(fs, base+"ecn/", n.Eth.ECN)
		}
	}
	return fs
}

func (h *Host) portFiles(fs *vfs, d *RDMADevice, p *RDMAPort) {
	base := "/sys/class/infiniband/" + d.Name + "/ports/" + strconv.Itoa(p.Num) + "/"
	tc := "/sys/class/infiniband/" + d.Name + "/tc/" + strconv.Itoa(p.Num) + "/traffic_class"
	cm := "/sys/kernel/config/rdma_cm/" + d.Name + "/ports/" + strconv.Itoa(p.Num) + "/"
	if !fs.wants(base) && !fs.wants(tc) && !fs.wants(cm) {
		return // the port's state and GID table are not derived for a command that reads neither
	}
	if fs.wants(base+"link_layer") || fs.wants(base+"state") || fs.wants(base+"phys_state") || fs.wants(base+"rate") {
		v := h.view(p)
		fs.add(base+"link_layer", "Ethernet\n")
		fs.add(base+"state", v.sysState+"\n")
		fs.add(base+"phys_state", v.sysPhys+"\n")
		fs.add(base+"rate", v.rateText+"\n")
	}

	if fs.wants(base+"gids/") || fs.wants(base+"gid_attrs/") {
		// Empty slots read as the zero GID; their attributes fail with EINVAL.
		gids := h.GIDTable(p)
		slot := func(i int, f func(e GIDEntry) string) vfile {
			if i < len(gids) {
				return vfile{data: f(gids[i]) + "\n"}
			}
			return vfile{errno: "Invalid argument"}
		}
		fs.addSlots(base+"gids", p.GIDTableLen, func(i int) vfile {
			if i < len(gids) {
				return vfile{data: sysfsGID(gids[i].Addr) + "\n"}
			}
			return vfile{data: zeroGID + "\n"}
		})
		fs.addSlots(base+"gid_attrs/types", p.GIDTableLen, func(i int) vfile { return slot(i, func(e GIDEntry) string { return e.Type }) })
		fs.addSlots(base+"gid_attrs/ndevs", p.GIDTableLen, func(i int) vfile { return slot(i, func(e GIDEntry) string { return e.Ndev }) })
	}

	fs.addNamedSlots(base+"hw_counters", hwCounterNames, func(i int) vfile {
		val := p.Counters[hwCounterNames[i]]
		if hwCounterNames[i] == "lifespan" && val == 0 {
			val = 10 // ms the values may be cached
		}
		return vfile{data: strconv.FormatUint(val, 10) + "\n"}
	})

	if h.OFED {
		if p.TrafficClass == "" {
			fs.add(tc, "")
		} else {
			fs.add(tc, p.TrafficClass+"\n")
		}
	}
	if p.DefaultRoCEToS != nil {
		fs.add(cm+"default_roce_tos", strconv.Itoa(*p.DefaultRoCEToS)+"\n")
		fs.add(cm+"default_roce_mode", GIDTypeV2+"\n")
	}
}

// ecnFiles are MLNX_OFED's per-netdev DCQCN files (en_sysfs.c).
func ecnFiles(fs *vfs, base string, e ECN) {
	if !fs.wants(base) {
		return
	}
	fs.addSlots(base+"roce_np/enable", 8, func(prio int) vfile { return vfile{data: bitLine(e.NP[prio])} })
	fs.addSlots(base+"roce_rp/enable", 8, func(prio int) vfile { return vfile{data: bitLine(e.RP[prio])} })
	fs.add(base+"roce_np/cnp_dscp", strconv.Itoa(e.CNPDSCP)+"\n")
	fs.add(base+"roce_np/cnp_802p_prio", strconv.Itoa(e.CNP802pPrio)+"\n")
	fs.add(base+"roce_np/min_time_between_cnps", "4\n")
	for _, f := range rpDefaults {
		fs.add(base+"roce_rp/"+f[0], f[1]+"\n")
	}
}

// rpDefaults are the reaction point's parameters at their driver defaults.
var rpDefaults = [][2]string{
	{"clamp_tgt_rate", "0"}, {"clamp_tgt_rate_after_time_inc", "1"}, {"rpg_time_reset", "300"},
	{"rpg_byte_reset", "32767"}, {"rpg_threshold", "1"}, {"rpg_max_rate", "0"}, {"rpg_ai_rate", "5"},
	{"rpg_hai_rate", "50"}, {"rpg_gd", "11"}, {"rpg_min_dec_fac", "50"}, {"rpg_min_rate", "1"},
	{"rate_to_set_on_first_cnp", "0"}, {"dce_tcp_g", "1019"}, {"dce_tcp_rtt", "1"},
	{"rate_reduce_monitor_period", "4"}, {"initial_alpha_value", "1023"},
}

// bitLine is a 0/1 file's content.
func bitLine(b bool) string {
	if b {
		return "1\n"
	}
	return "0\n"
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
