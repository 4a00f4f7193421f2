package linux

import (
	"fmt"
	"strings"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
)

// Remediation is the fix for one HOST-* check (or the host end of a LINK-*, PATH-* or XFER-RUN
// result) on the netdev in.Port, as shell commands for the tools the host really has: mlnx_qos
// for NVIDIA OFED, dcb for the inbox driver (both when the facts do not say), on the RDMA
// device and port the facts bind to the netdev, and on its VLAN uppers where they matter. An
// unknown check ID gives "".
func Remediation(in remedy.Input) string {
	h := hostOf(in)
	r := in.Recipe
	switch in.CheckID {
	case "HOST-RDMA-PORT":
		return rdmaPortFix(h)
	case "HOST-GID-V2":
		return gidV2Fix(h)
	case "HOST-GID-INDEX":
		if idx, ok := h.v2Index(); ok {
			return fmt.Sprintf("set NCCL_IB_GID_INDEX=%d in /etc/nccl.conf (and gid_index in the inventory); perftest: -x %d", idx, idx)
		}
		return fmt.Sprintf("give %s a RoCE v2 GID first (see HOST-GID-V2), then set NCCL_IB_GID_INDEX in /etc/nccl.conf to its index", h.netdev)
	case "HOST-MTU", "LINK-MTU", "PATH-MTU":
		var fix []string
		for _, n := range h.wrongMTU(r.HostMTU) {
			fix = append(fix, fmt.Sprintf("ip link set dev %s mtu %d", n, r.HostMTU))
		}
		return strings.Join(fix, "; ") + " (and persist it in the network configuration)"
	case "HOST-ROCE-MTU":
		return roceMTUFix(h, r)
	case "HOST-TRUST":
		return h.qos(
			fmt.Sprintf("mlnx_qos -i %s --trust dscp", h.netdev),
			fmt.Sprintf("dcb app add dev %s dscp-prio %d:%d %d:%d (DSCP entries switch the inbox mlx5 driver to DSCP trust)",
				h.netdev, r.RoCEDSCP, r.RoCEPriority, r.CNPDSCP, r.CNPPriority))
	case "HOST-DSCP-MAP":
		return h.qos(
			fmt.Sprintf("mlnx_qos -i %s --dscp2prio set,%d,%d", h.netdev, r.RoCEDSCP, r.RoCEPriority),
			fmt.Sprintf("dcb app replace dev %s dscp-prio %d:%d", h.netdev, r.RoCEDSCP, r.RoCEPriority))
	case "HOST-PFC", "LINK-PFC":
		return h.qos(
			fmt.Sprintf("mlnx_qos -i %s --pfc %s", h.netdev, pfcBits(r.RoCEPriority)),
			fmt.Sprintf("dcb pfc set dev %s prio-pfc all:off %d:on", h.netdev, r.RoCEPriority))
	case "LINK-PFC-STORM":
		return stormTimeoutFix(h.netdev, in.PeerSwitch)
	case "HOST-PAUSE":
		return fmt.Sprintf("ethtool -A %s autoneg off rx off tx off", h.netdev)
	case "HOST-ECN":
		return ecnFix(h, r)
	case "HOST-CNP":
		return cnpFix(h, r)
	case "HOST-TOS":
		t := tos(r)
		return fmt.Sprintf("echo %d > /sys/class/infiniband/%s/tc/%d/traffic_class (or cma_roce_tos -d %s -p %d -t %d)",
			t, h.rdma, h.rdmaPort, h.rdma, h.rdmaPort, t)
	case "HOST-DCBX", "PATH-DCBX-MIX":
		return dcbxFix(h, r)
	case "HOST-APP-TC":
		t := tos(r)
		return fmt.Sprintf("echo NCCL_IB_TC=%d >> /etc/nccl.conf, and fix or remove any NCCL_IB_TC that /etc/environment or "+
			"/etc/profile.d/*.sh exports (the environment wins over nccl.conf); for UCX: UCX_IB_TRAFFIC_CLASS=%d", t, t)
	case "XFER-RUN":
		if x := in.Transfer; x == nil || x.ErrorKind == "not-installed" {
			return "install perftest on both hosts (apt install perftest / dnf install perftest)"
		}
	}
	return ""
}

func rdmaPortFix(h host) string {
	switch {
	case h.p != nil && h.p.RDMADevice == "" && !h.p.BindingsUnknown:
		return "load the RDMA driver for the NIC (mlx5_ib for ConnectX) and check `rdma link show`; if the NIC has no RDMA, remove " +
			h.netdev + " from the inventory"
	case h.p != nil && h.p.State.Usable() && h.p.State.Value.LinkLayer != "" && h.p.State.Value.LinkLayer != "Ethernet":
		return fmt.Sprintf("set the port to Ethernet: mlxconfig -d %s set LINK_TYPE_P%d=2 (then reboot) — %s/%d is %s",
			h.pci(), h.rdmaPort, h.rdma, h.rdmaPort, h.p.State.Value.LinkLayer)
	}
	return fmt.Sprintf("ip link set dev %s up; then check `rdma link show %s/%d` and the cable/switch port", h.netdev, h.rdma, h.rdmaPort)
}

func gidV2Fix(h host) string {
	if h.p != nil && h.p.Link.Usable() && len(h.addresses()) == 0 {
		return "assign the RoCE IP to " + h.netdev + h.vlans(" (or its VLAN %s)") + " in the host's network configuration"
	}
	return fmt.Sprintf("check the RoCE mode of %s/%d: grep -H . /sys/class/infiniband/%s/ports/%d/gid_attrs/types/*; "+
		"RoCE v2 must be enabled in the NIC and driver (devlink dev param show pci/%s name enable_roce)",
		h.rdma, h.rdmaPort, h.rdma, h.rdmaPort, h.pci())
}

func roceMTUFix(h host, r recipe.Recipe) string {
	if h.p != nil && h.p.State.Usable() {
		if s := h.p.State.Value; s.MaxMTU > 0 && s.MaxMTU < r.RoCEMTU {
			return fmt.Sprintf("%s/%d cannot run MTU %d: check the NIC firmware and its port MTU capability (ibv_devinfo -d %s)",
				h.rdma, h.rdmaPort, r.RoCEMTU, h.rdma)
		}
		if h.p.Link.Usable() && recipe.ActiveMTUFor(h.p.Link.Value.MTU) < r.RoCEMTU {
			return fmt.Sprintf("ip link set dev %s mtu %d: active_mtu follows the netdev MTU", h.netdev, r.HostMTU)
		}
	}
	return fmt.Sprintf("ip link set dev %s mtu %d; then check ibv_devinfo -d %s", h.netdev, r.HostMTU, h.rdma)
}

func ecnFix(h host, r recipe.Recipe) string {
	np, rp := true, true // both, unless the facts show one already on
	if h.p != nil && h.p.DCQCN.Usable() {
		np, rp = !h.p.DCQCN.Value.NP[r.RoCEPriority], !h.p.DCQCN.Value.RP[r.RoCEPriority]
	}
	var fix []string
	for _, point := range []struct {
		name string
		off  bool
	}{{"roce_np", np}, {"roce_rp", rp}} {
		if point.off {
			fix = append(fix, fmt.Sprintf("echo 1 > /sys/class/net/%s/ecn/%s/enable/%d", h.netdev, point.name, r.RoCEPriority))
		}
	}
	return strings.Join(fix, "; ")
}

func cnpFix(h host, r recipe.Recipe) string {
	dscp, prio := true, true
	if h.p != nil && h.p.CNP.Usable() {
		c := h.p.CNP.Value
		dscp, prio = c.DSCP != r.CNPDSCP, c.HasPrio && c.Priority != r.CNPPriority
	}
	var fix []string
	if dscp {
		fix = append(fix, fmt.Sprintf("echo %d > /sys/class/net/%s/ecn/roce_np/cnp_dscp", r.CNPDSCP, h.netdev))
	}
	if prio {
		fix = append(fix, fmt.Sprintf("echo %d > /sys/class/net/%s/ecn/roce_np/cnp_802p_prio", r.CNPPriority, h.netdev))
	}
	return strings.Join(fix, "; ")
}

func dcbxFix(h host, r recipe.Recipe) string {
	dynamic := r.DCBX == recipe.DCBXDynamic
	mlnx := fmt.Sprintf("mlnx_qos -i %s -d os; systemctl disable --now lldpad", h.netdev)
	inbox := "systemctl disable --now lldpad (the inbox driver then keeps the settings dcb makes)"
	if dynamic {
		mlnx = fmt.Sprintf("mlnx_qos -i %s -d fw", h.netdev)
		inbox = fmt.Sprintf("systemctl enable --now lldpad; lldptool -T -i %s -V PFC enableTx=yes willing=yes", h.netdev)
	}
	return h.qos(mlnx, inbox)
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
