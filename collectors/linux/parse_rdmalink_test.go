package linux

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRdmaLink(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[DevPort]string
	}{
		{"current layout (fixture)", readFixture(t, "ofed-lossless", "rdma_link"),
			map[DevPort]string{{"mlx5_0", 1}: "ens1f0np0"}},
		{"iproute2 4.16 layout (fixture)", readFixture(t, "dual-port", "rdma_link"),
			map[DevPort]string{{"mlx5_0", 1}: "ens1f0np0", {"mlx5_1", 1}: "ens1f1np1"}},
		{"predictable device name (fixture)", readFixture(t, "inbox-dcb", "rdma_link"),
			map[DevPort]string{{"rocep59s0f0", 1}: "enp59s0f0np0"}},
		{"InfiniBand port without netdev and a down port",
			"link mlx5_5/1 subnet_prefix fe80:0000:0000:0000 lid 15 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP \n" +
				"link mlx5_bond_0/1 state DOWN physical_state DISABLED netdev bond0 \n",
			map[DevPort]string{{"mlx5_5", 1}: "", {"mlx5_bond_0", 1}: "bond0"}},
		{"empty (no RDMA device)", "", map[DevPort]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRdmaLink(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseRdmaLinkErrors(t *testing.T) {
	for _, in := range []string{
		"Usage: rdma [ OPTIONS ] OBJECT { COMMAND | help }",
		"link mlx5_0 state ACTIVE",         // no /PORT
		"link mlx5_0/x state ACTIVE",       // port not a number
		"3/1: mlx5_1/1 state ACTIVE",       // old layout missing the second colon
		"dev mlx5_0 node_type ca fw 16.35", // `rdma dev` output, not `rdma link`
	} {
		if got, err := ParseRdmaLink(in); err == nil {
			t.Errorf("ParseRdmaLink(%q) = %v, want an error", in, got)
		}
	}
}
