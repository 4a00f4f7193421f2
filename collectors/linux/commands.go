package linux

// The exact command templates of the Linux host command set. The lab answers these byte for
// byte, so they must not drift: change them only together with notes/linux-commands.md.
const (
	CmdIPAddr     = "ip -d -j addr show"
	CmdRdmaLink   = "rdma link show"
	CmdIbvDevinfo = "ibv_devinfo -v"
	CmdGIDs       = "grep -s -H . /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*"
	CmdNCCLConf   = "cat /etc/nccl.conf"
	CmdLLDPAD     = "systemctl is-active lldpad"
	// CmdLLDPNeighbors reads lldpd's neighbours; json0 is the format that is always lists,
	// whatever the number of neighbours (switches.md §1.6).
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
var discoveryCommands = []string{CmdIPAddr, CmdRdmaLink, CmdIbvDevinfo, CmdGIDs, CmdNCCLConf, CmdLLDPAD, CmdLLDPNeighbors}

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
	return append(append([]string(nil), discoveryCommands...), portCommands...)
}
