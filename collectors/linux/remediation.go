package linux

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// Remediation is the fix for one HOST-* (or XFER-RUN) check on the netdev port under recipe
// r, as shell commands for the NIC's tools: mlnx_qos for NVIDIA OFED, dcb for the inbox
// driver. The RDMA device is named from the netdev's sysfs link, and its port is 1 (each
// ConnectX function has one). An unknown check ID gives "".
func Remediation(checkID, port string, _ *topology.SwitchPort, r recipe.Recipe) string {
	rdma := fmt.Sprintf("$(ls /sys/class/net/%s/device/infiniband)", port)
	ecn := "/sys/class/net/" + port + "/ecn"
	switch checkID {
	case "HOST-RDMA-PORT":
		return fmt.Sprintf("ip link set dev %s up; then rdma link show %s/1 (check cabling and the switch port if it stays down)", port, rdma)
	case "HOST-GID-V2":
		return fmt.Sprintf("ip addr show %s; grep -H . /sys/class/infiniband/%s/ports/1/gid_attrs/types/* "+
			"(RoCE v2 entries appear when the IP is on the RDMA netdev or its VLAN)", port, rdma)
	case "HOST-GID-INDEX":
		return "set NCCL_IB_GID_INDEX (e.g. in /etc/nccl.conf) to the RoCE v2 index named by HOST-GID-V2"
	case "HOST-MTU":
		return fmt.Sprintf("ip link set dev %s mtu %d (and persist it in the network configuration)", port, r.HostMTU)
	case "HOST-ROCE-MTU":
		return fmt.Sprintf("raise the netdev MTU (ip link set dev %s mtu %d): active_mtu follows it", port, r.HostMTU)
	case "HOST-TRUST":
		return fmt.Sprintf("mlnx_qos -i %s --trust dscp (inbox driver: dcb app add dev %s dscp-prio %d:%d %d:%d)",
			port, port, r.RoCEDSCP, r.RoCEPriority, r.CNPDSCP, r.CNPPriority)
	case "HOST-DSCP-MAP":
		return fmt.Sprintf("mlnx_qos -i %s --dscp2prio set,%d,%d (inbox: dcb app replace dev %s dscp-prio %d:%d)",
			port, r.RoCEDSCP, r.RoCEPriority, port, r.RoCEDSCP, r.RoCEPriority)
	case "HOST-PFC":
		return fmt.Sprintf("mlnx_qos -i %s --pfc %s (inbox: dcb pfc set dev %s prio-pfc all:off %d:on)",
			port, pfcBits(r.RoCEPriority), port, r.RoCEPriority)
	case "HOST-PAUSE":
		return fmt.Sprintf("ethtool -A %s autoneg off rx off tx off", port)
	case "HOST-ECN":
		return fmt.Sprintf("echo 1 > %s/roce_np/enable/%d; echo 1 > %s/roce_rp/enable/%d", ecn, r.RoCEPriority, ecn, r.RoCEPriority)
	case "HOST-CNP":
		return fmt.Sprintf("echo %d > %s/roce_np/cnp_dscp; echo %d > %s/roce_np/cnp_802p_prio", r.CNPDSCP, ecn, r.CNPPriority, ecn)
	case "HOST-TOS":
		t := tos(r)
		return fmt.Sprintf("echo %d > /sys/class/infiniband/%s/tc/1/traffic_class (or cma_roce_tos -d %s -p 1 -t %d)", t, rdma, rdma, t)
	case "HOST-DCBX":
		if r.DCBX == recipe.DCBXDynamic {
			return fmt.Sprintf("mlnx_qos -i %s -d fw", port)
		}
		return fmt.Sprintf("mlnx_qos -i %s -d os; systemctl disable --now lldpad", port)
	case "HOST-APP-TC":
		t := tos(r)
		return fmt.Sprintf("echo NCCL_IB_TC=%d >> /etc/nccl.conf, and fix or remove any NCCL_IB_TC that /etc/environment or "+
			"/etc/profile.d/*.sh exports (the environment wins over nccl.conf); for UCX: UCX_IB_TRAFFIC_CLASS=%d", t, t)
	case "XFER-RUN":
		return "install perftest (package perftest) and check the endpoints' RoCE v2 GIDs (roceaudit gids)"
	}
	return ""
}

// pfcBits is mlnx_qos's --pfc argument enabling PFC on priority alone.
func pfcBits(priority int) string {
	bits := make([]string, 8)
	for i := range bits {
		bits[i] = "0"
		if i == priority {
			bits[i] = "1"
		}
	}
	return strings.Join(bits, ",")
}

// tos is the RDMA traffic class a host should set: the last of the recipe's accepted values
// (the ECN-capable one), else the RoCE DSCP with ECT(0).
func tos(r recipe.Recipe) int {
	if len(r.RoCEToS) > 0 {
		return r.RoCEToS[len(r.RoCEToS)-1]
	}
	return r.RoCEDSCP<<2 | 2
}
