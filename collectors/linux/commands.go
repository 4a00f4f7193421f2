package linux

// The exact command templates of the Linux host command set. The platform's read-only
// allowlist (Descriptor().Allowlist()) is built from these, and the lab's emulated host
// (lab/linuxhost) parses them byte for byte, so they must not drift: change one only
// together with linuxCommands (platform_test.go) and the emulator's parsing.
const (
	CmdIPAddr     = "ip -d -j addr show"
	CmdRdmaLink   = "rdma link show"
	CmdIbvDevinfo = "ibv_devinfo -v"
	// CmdGIDs reads every port's GID table. A line must hold a character other than 0 and
	// ':', which the zero GID of an empty slot does not (a type or netdev name always does):
	// those were 2,008 of an 8-rail host's 2,104 lines (172 of its 308 kB of output), sent,
	// decrypted and split only to be dropped.
	CmdGIDs     = "grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*"
	CmdNCCLConf = "cat /etc/nccl.conf"
	CmdLLDPAD   = "systemctl is-active lldpad"
	// CmdPgrepLLDPAD decides whether lldpad runs where systemctl cannot answer (no systemd
	// as PID 1: a container, a minimal install): only the process table is read.
	CmdPgrepLLDPAD = "pgrep -x lldpad"
	// CmdAppSettings reads the knobs that decide the traffic class RDMA applications send.
	// grep keeps only the matching lines, so nothing else of these files (which may hold
	// tokens) reaches the transcript; -s silences absent files, the shell expands the glob.
	CmdAppSettings = "grep -H -s -E '^[[:space:]]*(export[[:space:]]+)?(NCCL_IB_|UCX_IB_TRAFFIC_CLASS)' /etc/nccl.conf /etc/environment /etc/profile.d/*.sh"
	// CmdLLDPNeighbors reads lldpd's neighbours; json0 is the format that is always lists,
	// whatever the number of neighbours (lldpd/lldpd#236).
	CmdLLDPNeighbors = "lldpcli -f json0 show neighbors"

	CmdMlnxQos        = "mlnx_qos -i {if}"
	CmdDcbApp         = "dcb -j -N app show dev {if}"
	CmdDcbPFC         = "dcb -j pfc show dev {if}"
	CmdDcbDCBX        = "dcb -j dcbx show dev {if}"
	CmdEthtoolPause   = "ethtool -a {if}"
	CmdECN            = "grep -s -H . /sys/class/net/{if}/ecn/roce_np/enable/* /sys/class/net/{if}/ecn/roce_rp/enable/* /sys/class/net/{if}/ecn/roce_np/cnp_dscp /sys/class/net/{if}/ecn/roce_np/cnp_802p_prio"
	CmdTrafficClass   = "cat /sys/class/infiniband/{dev}/tc/{port}/traffic_class"
	CmdDefaultRoCEToS = "cat /sys/kernel/config/rdma_cm/{dev}/ports/{port}/default_roce_tos"
	CmdEthtoolStats   = "ethtool -S {if}"
	CmdPFCTunable     = "ethtool --get-tunable {if} pfc-prevention-tout"
	CmdHwCounters     = "grep -s -H . /sys/class/infiniband/{dev}/ports/{port}/hw_counters/*"
)

// discoveryCommands run once per host, in this order.
var discoveryCommands = []string{CmdIPAddr, CmdRdmaLink, CmdIbvDevinfo, CmdGIDs, CmdNCCLConf, CmdLLDPAD, CmdLLDPNeighbors, CmdAppSettings}

// fallbackCommands run once per host only when a discovery command could not answer:
// pgrep when systemctl has no systemd to ask.
var fallbackCommands = []string{CmdPgrepLLDPAD}

// portCommands run per audited port ({if}, {dev}, {port}), in this order.
var portCommands = []string{
	CmdMlnxQos, CmdDcbApp, CmdDcbPFC, CmdDcbDCBX, CmdEthtoolPause, CmdECN,
	CmdTrafficClass, CmdDefaultRoCEToS, CmdEthtoolStats, CmdHwCounters, CmdPFCTunable,
}

// CollectionCommands is the collection command set (without the transfer's perftest
// commands), in the order it runs: what an emulated lab host answers.
func CollectionCommands() []string { return templates() }

// templates is the whole published command set.
func templates() []string {
	out := append(append([]string(nil), discoveryCommands...), fallbackCommands...)
	return append(out, portCommands...)
}
