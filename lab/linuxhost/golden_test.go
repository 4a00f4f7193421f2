package linuxhost

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// gpu01 is the healthy lab's most varied host: an IPv6 address and a VLAN on port 0, and the
// leaves the lab cables it to as its LLDP neighbours (a SONiC leaf advertises its port alias
// and description, a Cumulus leaf the port name).
func gpu01() *Host {
	h := NewGPUHost("gpu01", 1)
	h.AddAddr(Port0, "2001:db8:1::1/64")
	h.AddVLAN(Port0, 100, "10.100.0.1/24")
	caps := []LLDPCapability{{"Bridge", true}, {"Router", true}}
	h.LLDPNeighbors = map[string][]LLDPNeighbor{
		Port0: {{ChassisIDType: "mac", ChassisID: "98:03:9b:10:01:00", SysName: "leaf1",
			SysDescr: "SONiC Software Version: SONiC.202405 - HwSku: Mellanox-SN4600C", Capabilities: caps,
			PortIDType: "local", PortID: "etp1", PortDescr: "gpu01:ens1f0np0", TTL: 120, Age: 3*24*time.Hour + 4*time.Hour + 12*time.Minute + 9*time.Second}},
		Port1: {{ChassisIDType: "mac", ChassisID: "98:03:9b:10:02:00", SysName: "leaf2",
			SysDescr: "Cumulus Linux version 5.9.1 running on MSN3700", Capabilities: caps,
			PortIDType: "ifname", PortID: "swp1", PortDescr: "swp1", TTL: 120, Age: 3*24*time.Hour + 4*time.Hour + 12*time.Minute + 9*time.Second}},
	}
	return h
}

// gpu02 has no mlnx-tools (dcb fallback) and an /etc/nccl.conf.
func gpu02() *Host {
	h := NewGPUHost("gpu02", 2)
	h.MlnxQoS = false
	h.Files["/etc/nccl.conf"] = "# NCCL settings for RoCE\nNCCL_IB_HCA=mlx5_0,mlx5_1\nNCCL_IB_GID_INDEX=3\nNCCL_SOCKET_IFNAME=eno1\n"
	return h
}

type goldenCase struct {
	golden string // testdata/<host>/<golden>; "" when stdout must be empty
	cmd    string
	exit   int
	stderr string
}

func checkGolden(t *testing.T, h *Host, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		out, errOut, exit := h.Exec(context.Background(), c.cmd)
		if exit != c.exit || errOut != c.stderr {
			t.Errorf("%s: %q: exit %d stderr %q, want exit %d stderr %q", h.Name, c.cmd, exit, errOut, c.exit, c.stderr)
		}
		if c.golden == "" {
			if out != "" {
				t.Errorf("%s: %q: stdout %q, want none", h.Name, c.cmd, out)
			}
			continue
		}
		path := filepath.Join("testdata", h.Name, c.golden)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if out != string(want) {
			t.Errorf("%s: %q differs from %s:\n%s", h.Name, c.cmd, path, firstDiff(out, string(want)))
		}
	}
}

// firstDiff shows the first differing line.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + strings.ReplaceAll(gl, "\t", `\t`) + "\n want " + strings.ReplaceAll(wl, "\t", `\t`)
		}
	}
	return "(no line differs)"
}

const (
	cmdGIDs = "grep -s -H . /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*"
	cmdECN0 = "grep -s -H . /sys/class/net/ens1f0np0/ecn/roce_np/enable/* /sys/class/net/ens1f0np0/ecn/roce_rp/enable/* /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"
)

func TestGoldenHealthyGPU01(t *testing.T) {
	checkGolden(t, gpu01(), []goldenCase{
		{"ip_addr.json", "ip -d -j addr show", 0, ""},
		{"rdma_link.txt", "rdma link show", 0, ""},
		{"ibv_devinfo.txt", "ibv_devinfo -v", 0, ""},
		{"gids.txt", cmdGIDs, 2, ""},
		{"", "cat /etc/nccl.conf", 1, "cat: /etc/nccl.conf: No such file or directory\n"},
		{"lldpad.txt", "systemctl is-active lldpad", 3, ""},
		{"lldpcli.json", "lldpcli -f json0 show neighbors", 0, ""},
		{"mlnx_qos_ens1f0np0.txt", "mlnx_qos -i ens1f0np0", 0, ""},
		{"dcb_app_ens1f0np0.json", "dcb -j -N app show dev ens1f0np0", 0, ""},
		{"dcb_pfc_ens1f0np0.json", "dcb -j pfc show dev ens1f0np0", 0, ""},
		{"dcb_dcbx_ens1f0np0.json", "dcb -j dcbx show dev ens1f0np0", 0, ""},
		{"ethtool_a_ens1f0np0.txt", "ethtool -a ens1f0np0", 0, ""},
		{"ecn_ens1f0np0.txt", cmdECN0, 0, ""},
		{"traffic_class_mlx5_0.txt", "cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class", 0, ""},
		{"", "cat /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", 1,
			"cat: /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos: No such file or directory\n"},
		{"ethtool_S_ens1f0np0.txt", "ethtool -S ens1f0np0", 0, ""},
		{"hw_counters_mlx5_0.txt", "grep -s -H . /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*", 0, ""},
	})
}

func TestGoldenHealthyGPU02NoMlnxQos(t *testing.T) {
	checkGolden(t, gpu02(), []goldenCase{
		{"", "mlnx_qos -i ens1f1np1", 127, "bash: line 1: mlnx_qos: command not found\n"},
		{"nccl.conf", "cat /etc/nccl.conf", 0, ""},
		{"dcb_app_ens1f1np1.json", "dcb -j -N app show dev ens1f1np1", 0, ""},
		{"dcb_pfc_ens1f1np1.json", "dcb -j pfc show dev ens1f1np1", 0, ""},
		{"dcb_dcbx_ens1f1np1.json", "dcb -j dcbx show dev ens1f1np1", 0, ""},
	})
}

// The goldens must keep the real tools' shapes, not just match themselves.
func TestGoldenFormats(t *testing.T) {
	h := gpu01()
	run := func(cmd string) string {
		out, _, _ := h.Exec(context.Background(), cmd)
		return out
	}

	t.Run("ibv_devinfo uses tabs", func(t *testing.T) {
		out := run("ibv_devinfo -v")
		gid := regexp.MustCompile(`^\t\t\tGID\[\s*\d+\]:\t\t\S+, RoCE v[12]$`)
		for _, want := range []string{"hca_id:\tmlx5_0\n", "\t\tport:\t1\n", "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n",
			"\t\t\tmax_mtu:\t\t4096 (5)\n", "\t\t\tactive_mtu:\t\t4096 (5)\n", "\t\t\tlink_layer:\t\tEthernet\n",
			"\t\t\tactive_width:\t\t4X (2)\n", "\t\t\tactive_speed:\t\t25.0 Gbps (32)\n",
			"\t\t\tGID[  3]:\t\t::ffff:10.1.0.1, RoCE v2\n",
			"\t\t\tGID[  2]:\t\t0000:0000:0000:0000:0000:ffff:0a01:0001, RoCE v1\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("ibv_devinfo -v lacks %q", want)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "GID[") && !gid.MatchString(l) {
				t.Errorf("GID line %q does not match the devinfo.c format", l)
			}
			if l != "" && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "hca_id:\t") {
				t.Errorf("line %q is neither hca_id nor tab-indented", l)
			}
		}
	})

	t.Run("grep -H lines are PATH:VALUE", func(t *testing.T) {
		line := regexp.MustCompile(`^/sys/[^:\s]+:\S.*$`)
		for _, cmd := range []string{cmdGIDs, cmdECN0, "grep -s -H . /sys/class/infiniband/mlx5_1/ports/1/hw_counters/*"} {
			out := run(cmd)
			if !strings.HasSuffix(out, "\n") {
				t.Errorf("%q: output does not end in a newline", cmd)
			}
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if !line.MatchString(l) {
					t.Errorf("%q: line %q is not PATH:VALUE", cmd, l)
				}
			}
		}
	})

	t.Run("mlnx_qos tab rows", func(t *testing.T) {
		out := run("mlnx_qos -i ens1f0np0")
		for _, want := range []string{"DCBX mode: OS controlled\n", "Priority trust state: dscp\n",
			"\tprio:3 dscp:31,30,29,28,27,26,25,24,\n", "\tpriority    0   1   2   3   4   5   6   7\n",
			"\tenabled     0   0   0   1   0   0   0   0   \n", "tc: 0 ratelimit: unlimited, tsa: vendor\n\t priority:  1\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("mlnx_qos lacks %q", want)
			}
		}
	})

	t.Run("ethtool -a tabs", func(t *testing.T) {
		if got, want := run("ethtool -a ens1f0np0"), "Pause parameters for ens1f0np0:\nAutonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n\n"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})

	t.Run("JSON outputs parse", func(t *testing.T) {
		for _, cmd := range []string{"ip -d -j addr show", "lldpcli -f json0 show neighbors", "dcb -j -N app show dev ens1f0np0",
			"dcb -j pfc show dev ens1f0np0", "dcb -j dcbx show dev ens1f0np0"} {
			var v any
			if err := json.Unmarshal([]byte(run(cmd)), &v); err != nil {
				t.Errorf("%q: %v", cmd, err)
			}
		}
	})
}

// grep -E over the GID files selects what grep . does, but for the lines whose text its
// expression does not match (the collector's "[^0:]" leaves out the zero GIDs of empty
// slots), with the same file names and exit status (2: the empty slots' attributes are
// unreadable).
func TestGrepExtendedSelectsWhatGrepDotDoes(t *testing.T) {
	h := gpu01()
	all, _, allExit := h.Exec(context.Background(), cmdGIDs)
	got, errOut, exit := h.Exec(context.Background(), strings.Replace(cmdGIDs, " . ", " -E '[^0:]' ", 1))
	re := regexp.MustCompile(`[^0:]`)
	var want strings.Builder
	dropped := 0
	for line := range strings.Lines(all) {
		_, text, _ := strings.Cut(strings.TrimSuffix(line, "\n"), ":") // sysfs paths hold no ':'
		if re.MatchString(text) {
			want.WriteString(line)
		} else {
			dropped++
		}
	}
	if got != want.String() || exit != allExit || exit != 2 || errOut != "" {
		t.Errorf("grep -E: exit %d (grep . %d), stderr %q, output:\n%s\nwant:\n%s", exit, allExit, errOut, got, want.String())
	}
	if dropped < 200 {
		t.Errorf("only %d zero GIDs left out: the host has no empty slots to test with", dropped)
	}
}
