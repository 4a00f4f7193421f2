package linux

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseIbvDevinfoFixtures(t *testing.T) {
	active100 := topology.RDMAPort{State: "PORT_ACTIVE", PhysState: "LINK_UP", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 4096, SpeedGbps: 100}
	tests := []struct {
		scenario string
		want     map[DevPort]topology.RDMAPort
	}{
		{"ofed-lossless", map[DevPort]topology.RDMAPort{{"mlx5_0", 1}: active100}},
		{"dual-port", map[DevPort]topology.RDMAPort{{"mlx5_0", 1}: active100, {"mlx5_1", 1}: active100}},
		{"ipv6-gids-no-rdma", map[DevPort]topology.RDMAPort{
			{"mlx5_2", 1}: active100,
			{"mlx5_5", 1}: {State: "PORT_ACTIVE", PhysState: "LINK_UP", LinkLayer: "InfiniBand", MaxMTU: 4096, ActiveMTU: 4096, SpeedGbps: 100},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			got, err := ParseIbvDevinfo(readFixture(t, tc.scenario, "ibv_devinfo"))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseIbvDevinfoVariants(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[DevPort]topology.RDMAPort
	}{
		{"no -v: no width, speed or phys_state",
			"hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n\tphys_port_cnt:\t\t\t1\n" +
				"\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_DOWN (1)\n\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t1024 (3)\n" +
				"\t\t\tsm_lid:\t\t\t0\n\t\t\tport_lid:\t\t0\n\t\t\tport_lmc:\t\t0x00\n\t\t\tlink_layer:\t\tEthernet\n\n",
			map[DevPort]topology.RDMAPort{{"mlx5_0", 1}: {State: "PORT_DOWN", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 1024}}},
		{"tabs expanded to spaces, 2X 50G lanes (public ConnectX-6 Dx sample)",
			"hca_id:  mlx5_bond_0\n        port:   1\n            state:          PORT_ACTIVE (4)\n            max_mtu:        4096 (5)\n" +
				"            active_mtu:     4096 (5)\n            link_layer:     Ethernet\n            active_width:   2X (16)\n" +
				"            active_speed:   50.0 Gbps (64)\n            phys_state:     LINK_UP (5)\n" +
				"            GID[  3]:       ::ffff:27.105.179.3, RoCE v2\n",
			map[DevPort]topology.RDMAPort{{"mlx5_bond_0", 1}: {State: "PORT_ACTIVE", PhysState: "LINK_UP", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 4096, SpeedGbps: 100}}},
		{"invalid speed code leaves the speed unknown",
			"hca_id:\trxe0\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t1024 (3)\n" +
				"\t\t\tlink_layer:\t\tEthernet\n\t\t\tactive_width:\t\t1X (1)\n\t\t\tactive_speed:\t\tinvalid speed (0)\n",
			map[DevPort]topology.RDMAPort{{"rxe0", 1}: {State: "PORT_ACTIVE", LinkLayer: "Ethernet", MaxMTU: 4096, ActiveMTU: 1024}}},
		{"no device", "", map[DevPort]topology.RDMAPort{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseIbvDevinfo(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseIbvDevinfoErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not ibv_devinfo":    "Failed to get IB devices list: Function not implemented\n",
		"port before device": "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n",
		"truncated port":     "hca_id:\tmlx5_0\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n",
		"state without code": "hca_id:\tmlx5_0\n\t\tport:\t1\n\t\t\tstate:\t\t\tACTIVE\n",
		"port not a number":  "hca_id:\tmlx5_0\n\t\tport:\tone\n",
		"empty link layer":   "hca_id:\tmlx5_0\n\t\tport:\t1\n\t\t\tlink_layer:\t\t\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := ParseIbvDevinfo(in); err == nil {
				t.Errorf("want an error, got %+v", got)
			}
		})
	}
}

// labelCodeRef is the expression splitLabelCode replaced: the reference it must agree with.
var labelCodeRef = regexp.MustCompile(`^(.+?)\s*\((\d+)\)$`)

func checkLabelCode(t *testing.T, val string) {
	label, ok := splitLabelCode(val)
	m := labelCodeRef.FindStringSubmatch(val)
	if ok != (m != nil) || (m != nil && label != m[1]) {
		t.Errorf("%q: split %q %v, expression %q", val, label, ok, m)
	}
}

func TestSplitLabelCodeAgreesWithExpression(t *testing.T) {
	for _, v := range []string{"PORT_ACTIVE (4)", "LINK_UP (5)", "4096 (5)", "4X (2)", "100.0 Gbps (64)", "invalid MTU (0)",
		"(4)", " (4)", "\t \r(4)", "x(4)", "x (4) ", "x ()", "x (4a)", "x ((4))", "a (1) (2)", "a\n(1)", "\n (1)", "a\nb (1)", "\xff (1)", "é (2)", "x", "", ")"} {
		checkLabelCode(t, v)
	}
}

// go test -fuzz=FuzzSplitLabelCode -fuzztime=30s ./collectors/linux
func FuzzSplitLabelCode(f *testing.F) {
	f.Add("PORT_ACTIVE (4)")
	f.Add(" \t(12)")
	f.Fuzz(checkLabelCode)
}
