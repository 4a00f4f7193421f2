package linuxhost

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// The lab's hot commands, as the auditor sends them (its command set is not imported: the lab
// knows nothing of collectors/). {if}, {dev} and {port} are filled in per RoCE port.
const (
	benchGIDs        = "grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*"
	benchAppSettings = "grep -H -s -E '^[[:space:]]*(export[[:space:]]+)?(NCCL_IB_|UCX_IB_TRAFFIC_CLASS)' /etc/nccl.conf /etc/environment /etc/profile.d/*.sh"
)

var benchHostCommands = []string{"ip -d -j addr show", "rdma link show", "ibv_devinfo -v", benchGIDs,
	"cat /etc/nccl.conf", "systemctl is-active lldpad", "lldpcli -f json0 show neighbors", benchAppSettings}

var benchPortCommands = []string{
	"mlnx_qos -i {if}", "dcb -j -N app show dev {if}", "dcb -j pfc show dev {if}", "dcb -j dcbx show dev {if}",
	"ethtool -a {if}",
	"grep -s -H . /sys/class/net/{if}/ecn/roce_np/enable/* /sys/class/net/{if}/ecn/roce_rp/enable/* /sys/class/net/{if}/ecn/roce_np/cnp_dscp /sys/class/net/{if}/ecn/roce_np/cnp_802p_prio",
	"cat /sys/class/infiniband/{dev}/tc/{port}/traffic_class", "cat /sys/kernel/config/rdma_cm/{dev}/ports/{port}/default_roce_tos",
	"ethtool -S {if}", "grep -s -H . /sys/class/infiniband/{dev}/ports/{port}/hw_counters/*",
	"ethtool --get-tunable {if} pfc-prevention-tout",
}

// auditCommands is one audit of h: the host commands, then every port's.
func auditCommands(h *Host) []string {
	cmds := append([]string(nil), benchHostCommands...)
	for _, d := range h.RDMA {
		for _, p := range d.Ports {
			r := strings.NewReplacer("{if}", p.Netdev, "{dev}", d.Name, "{port}", strconv.Itoa(p.Num))
			for _, c := range benchPortCommands {
				cmds = append(cmds, r.Replace(c))
			}
		}
	}
	return cmds
}

func benchExec(b *testing.B, h *Host, cmds ...string) {
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cmds {
			h.Exec(context.Background(), c)
		}
	}
}

// The GID table grep: 255 slots x 3 files a port.
func BenchmarkGIDGrep8Rail(b *testing.B)    { benchExec(b, NewRailHost("gpu0001", 1, 8), benchGIDs) }
func BenchmarkGIDGrepDualPort(b *testing.B) { benchExec(b, NewGPUHost("gpu01", 1), benchGIDs) }

func BenchmarkHwCounters(b *testing.B) {
	benchExec(b, NewGPUHost("gpu01", 1), "grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*")
}

func BenchmarkECN(b *testing.B) {
	h := NewGPUHost("gpu01", 1)
	benchExec(b, h, auditCommands(h)[len(benchHostCommands)+5])
}

func BenchmarkAppSettings(b *testing.B) { benchExec(b, NewGPUHost("gpu01", 1), benchAppSettings) }

// A whole audit's commands of one host.
func BenchmarkAuditDualPort(b *testing.B) {
	h := NewGPUHost("gpu01", 1)
	benchExec(b, h, auditCommands(h)...)
}

func BenchmarkAudit8Rail(b *testing.B) {
	h := NewRailHost("gpu0001", 1, 8)
	benchExec(b, h, auditCommands(h)...)
}

func BenchmarkEthtoolStats(b *testing.B) { benchExec(b, NewGPUHost("gpu01", 1), "ethtool -S "+Port0) }

func BenchmarkQoS(b *testing.B) {
	benchExec(b, NewGPUHost("gpu01", 1), "mlnx_qos -i "+Port0, "dcb -j -N app show dev "+Port0, "dcb -j pfc show dev "+Port0)
}

// batched is cmds as the auditor batches them: one `exec /bin/sh -c '...'` list, each command
// followed by its stdout and stderr markers, after a head that sets up a watcher job.
func batched(cmds []string) string {
	const token = "roceaudit-0123456789abcdef0123456789abcdef"
	list := `exec 3<&0 </dev/null; { read x <&3; trap "" TERM; kill -TERM -$$; sleep 2; kill -KILL -$$; } >/dev/null 2>&1 & exec 3<&-; `
	for i, c := range cmds {
		if i > 0 {
			list += "; "
		}
		list += c + "; echo " + token + " $?; echo " + token + " >&2"
	}
	return "exec /bin/sh -c '" + strings.ReplaceAll(list+"; kill $!", "'", `'\''`) + "'"
}

func BenchmarkBatchedAuditDualPort(b *testing.B) {
	h := NewGPUHost("gpu01", 1)
	benchExec(b, h, batched(auditCommands(h)))
}

func BenchmarkIbvDevinfo(b *testing.B) { benchExec(b, NewGPUHost("gpu01", 1), "ibv_devinfo -v") }
