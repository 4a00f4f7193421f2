package linux

import (
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/remedy"
	"github.com/roceaudit/roceaudit/topology"
)

// Each fix names what the port's facts show: the RDMA device and port bound to it, the QoS
// tool it has, its VLAN uppers, and only the settings that are wrong.
func TestRemediationFollowsTheFacts(t *testing.T) {
	src := topology.Evidence{Command: "test"}
	cases := []struct {
		name, check string
		facts       func(p *topology.HostPort)
		want, not   []string
	}{
		{"port down", "HOST-RDMA-PORT", func(*topology.HostPort) {}, []string{"ip link set dev ens1f0np0 up", "rdma link show mlx5_0/1"}, nil},
		{"InfiniBand link layer", "HOST-RDMA-PORT", func(p *topology.HostPort) { p.RDMAPort = 2; p.State.Value.LinkLayer = "InfiniBand" },
			[]string{"mlxconfig -d $(basename $(readlink -f /sys/class/infiniband/mlx5_0/device)) set LINK_TYPE_P2=2"}, []string{"<"}},
		{"no RDMA device", "HOST-RDMA-PORT", func(p *topology.HostPort) { p.RDMADevice = "" }, []string{"mlx5_ib", "remove ens1f0np0 from the inventory"}, nil},
		{"GIDs without v2", "HOST-GID-V2", func(*topology.HostPort) {}, []string{"mlx5_0/ports/1/gid_attrs/types", "devlink dev param show pci/$(basename"}, []string{"<pci>"}},
		{"no address", "HOST-GID-V2", func(p *topology.HostPort) { p.Uppers = nil }, []string{"assign the RoCE IP to ens1f0np0 in"}, nil},
		{"v2 index on the VLAN", "HOST-GID-INDEX", func(*topology.HostPort) {}, []string{"NCCL_IB_GID_INDEX=3", "-x 3"}, nil},
		{"netdev and VLAN MTU", "HOST-MTU", func(*topology.HostPort) {}, []string{"ip link set dev ens1f0np0 mtu 9000; ip link set dev ens1f0np0.100 mtu 9000"}, nil},
		{"only the VLAN MTU", "HOST-MTU", func(p *topology.HostPort) { p.Link.Value.MTU = 9000 }, []string{"ip link set dev ens1f0np0.100 mtu 9000 "}, []string{"dev ens1f0np0 mtu"}},
		{"firmware caps the MTU", "HOST-ROCE-MTU", func(p *topology.HostPort) { p.State.Value.MaxMTU = 2048 }, []string{"mlx5_0/1 cannot run MTU 4096", "ibv_devinfo -d mlx5_0"}, []string{"ip link"}},
		{"netdev MTU too small", "HOST-ROCE-MTU", func(*topology.HostPort) {}, []string{"ip link set dev ens1f0np0 mtu 9000"}, []string{"firmware"}},
		{"mlnx_qos trust", "HOST-TRUST", func(*topology.HostPort) {}, []string{"mlnx_qos -i ens1f0np0 --trust dscp"}, []string{"dcb"}},
		{"dcb trust", "HOST-TRUST", func(p *topology.HostPort) { p.QoS.Value.Tool = "dcb" }, []string{"dcb app add dev ens1f0np0 dscp-prio 26:3 48:6"}, []string{"mlnx_qos"}},
		{"dcb PFC", "HOST-PFC", func(p *topology.HostPort) { p.QoS.Value.Tool = "dcb" }, []string{"dcb pfc set dev ens1f0np0 prio-pfc all:off 3:on"}, []string{"mlnx_qos"}},
		{"QoS tool unknown", "HOST-PFC", func(p *topology.HostPort) { p.QoS = topology.Unknown[topology.HostQoS](src) }, []string{"mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0", "dcb pfc set"}, nil},
		{"NP off only", "HOST-ECN", func(p *topology.HostPort) { p.DCQCN.Value.RP[3] = true }, []string{"roce_np/enable/3"}, []string{"roce_rp"}},
		{"CNP DSCP only", "HOST-CNP", func(p *topology.HostPort) { p.CNP.Value.Priority = 6 }, []string{"echo 48 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"}, []string{"cnp_802p_prio"}},
		{"ToS on the bound port", "HOST-TOS", func(p *topology.HostPort) { p.RDMADevice, p.RDMAPort = "mlx5_bond_0", 1 },
			[]string{"echo 106 > /sys/class/infiniband/mlx5_bond_0/tc/1/traffic_class", "cma_roce_tos -d mlx5_bond_0 -p 1 -t 106"}, nil},
		{"static DCBX on OFED", "HOST-DCBX", func(*topology.HostPort) {}, []string{"mlnx_qos -i ens1f0np0 -d os; systemctl disable --now lldpad"}, nil},
	}
	for _, tc := range cases {
		p := exampleHost()
		tc.facts(p)
		got := Remediation(remedy.Input{CheckID: tc.check, Port: "ens1f0np0", Host: p, Recipe: recipe.Default()})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %s fix %q lacks %q", tc.name, tc.check, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %s fix %q names %q", tc.name, tc.check, got, n)
			}
		}
	}
}

// Link and path results ask the host end for the host's fix; a transfer that could not run
// because perftest is missing is answered with the installer, other transfer failures are not.
func TestRemediationOfLinkPathAndTransferResults(t *testing.T) {
	r := recipe.Default()
	in := remedy.Input{Port: "ens1f0np0", Host: exampleHost(), Recipe: r}
	for id, same := range map[string]string{"LINK-MTU": "HOST-MTU", "PATH-MTU": "HOST-MTU", "LINK-PFC": "HOST-PFC", "PATH-DCBX-MIX": "HOST-DCBX"} {
		a, b := in, in
		a.CheckID, b.CheckID = id, same
		if got := Remediation(a); got == "" || got != Remediation(b) {
			t.Errorf("%s = %q, want %s's fix", id, got, same)
		}
	}
	in.CheckID = "XFER-RUN"
	in.Transfer = &topology.Transfer{ErrorKind: "not-installed"}
	if got := Remediation(in); !strings.Contains(got, "apt install perftest") {
		t.Errorf("perftest missing: %q", got)
	}
	in.Transfer = &topology.Transfer{ErrorKind: "transport"}
	if got := Remediation(in); got != "" {
		t.Errorf("transport error: %q, want none from the host", got)
	}
}
