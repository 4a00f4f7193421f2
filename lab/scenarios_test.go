package lab

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/lab/linuxhost"
)

// commands is the host command set for a standard GPU host, keyed by a short name.
func commands() map[string]string {
	cmds := map[string]string{
		"ip":          "ip -d -j addr show",
		"rdma":        "rdma link show",
		"ibv_devinfo": "ibv_devinfo -v",
		"gids":        "grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*",
		"nccl":        "cat /etc/nccl.conf",
		"lldpad":      "systemctl is-active lldpad",
		"lldp":        "lldpcli -f json0 show neighbors",
	}
	for i, nd := range []string{linuxhost.Port0, linuxhost.Port1} {
		dev := []string{"mlx5_0", "mlx5_1"}[i]
		p := nd + " "
		cmds[p+"mlnx_qos"] = "mlnx_qos -i " + nd
		cmds[p+"dcb app"] = "dcb -j -N app show dev " + nd
		cmds[p+"dcb pfc"] = "dcb -j pfc show dev " + nd
		cmds[p+"dcb dcbx"] = "dcb -j dcbx show dev " + nd
		cmds[p+"pause"] = "ethtool -a " + nd
		cmds[p+"ecn"] = "grep -s -H . /sys/class/net/" + nd + "/ecn/roce_np/enable/* /sys/class/net/" + nd +
			"/ecn/roce_rp/enable/* /sys/class/net/" + nd + "/ecn/roce_np/cnp_dscp /sys/class/net/" + nd + "/ecn/roce_np/cnp_802p_prio"
		cmds[p+"tc"] = "cat /sys/class/infiniband/" + dev + "/tc/1/traffic_class"
		cmds[p+"tos"] = "cat /sys/kernel/config/rdma_cm/" + dev + "/ports/1/default_roce_tos"
		cmds[p+"stats"] = "ethtool -S " + nd
		cmds[p+"hw"] = "grep -s -H . /sys/class/infiniband/" + dev + "/ports/1/hw_counters/*"
	}
	return cmds
}

// Every broken host differs from its healthy twin only in the outputs its fault shows in:
// each fault is a few lines of difference, and nothing else changed by accident. (gpu01's
// port without carrier loses its LLDP neighbour too.)
func TestBrokenDiffersOnlyByItsFaults(t *testing.T) {
	want := map[string][]string{
		"gpu01": {"ibv_devinfo", "ip", "lldp", "rdma"},
		"gpu02": {"gids", "ibv_devinfo"},
		"gpu03": {"nccl"},
		"gpu04": {"ibv_devinfo", "ip"},
		"gpu05": {"ens1f0np0 dcb app", "ens1f0np0 mlnx_qos", "ens1f1np1 dcb app", "ens1f1np1 mlnx_qos"},
		"gpu06": {"ens1f0np0 dcb pfc", "ens1f0np0 mlnx_qos", "ens1f0np0 stats", "ens1f1np1 pause", "ens1f1np1 stats"},
		"gpu07": {"ens1f0np0 ecn", "ens1f1np1 ecn"},
		"gpu08": {"ens1f0np0 tc", "ens1f1np1 dcb dcbx", "ens1f1np1 mlnx_qos"},
		"gpu09": nil,
		"gpu10": {"ens1f0np0 stats"},
		"gpu11": nil, // a slow receiver and a pause-storm timeout show in transfers and ethtool
		"gpu12": nil, // --get-tunable, none of the collection commands above
		"gpu13": {"ens1f0np0 tc", "ens1f0np0 tos", "ens1f1np1 tc", "ens1f1np1 tos"},
		"gpu14": nil, // its fault is its SSH server's (garbage), not its state
	}
	// The healthy twins of every broken host, on broken's fabric (gpu11 and gpu12 are cabled).
	var twins []*device
	for n := 1; n <= 14; n++ {
		twins = append(twins, gpu(n))
	}
	hh := healthy()
	copy(twins, hh)
	good := map[string]*device{}
	for _, d := range withSwitches(brokenFabric(), ScenarioHealthy, twins, 0) {
		good[d.name] = d
	}
	bad, err := build(ScenarioBroken, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, d := range bad {
		if d.host == nil {
			continue // switches: the emulators' round-trip tests cover their faults
		}
		var diff []string
		for name, cmd := range commands() {
			o1, e1, x1 := good[d.name].host.Exec(ctx, cmd)
			o2, e2, x2 := d.host.Exec(ctx, cmd)
			if o1 != o2 || e1 != e2 || x1 != x2 {
				diff = append(diff, name)
			}
		}
		slices.Sort(diff)
		if strings.Join(diff, "|") != strings.Join(want[d.name], "|") {
			t.Errorf("%s differs from healthy in %q, want %q", d.name, diff, want[d.name])
		}
	}
}

// Each fault shows the way the brief describes it.
func TestBrokenFaultsAsDescribed(t *testing.T) {
	bad, err := build(ScenarioBroken, 0)
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]*linuxhost.Host{}
	for _, d := range bad {
		hosts[d.name] = d.host
	}
	cmds := commands()
	for _, c := range []struct{ host, cmd, want string }{
		{"gpu01", "rdma", "link mlx5_1/1 state DOWN physical_state DISABLED netdev ens1f1np1\n"},
		{"gpu01", "ip", `"ifname":"ens1f1np1","flags":["NO-CARRIER","BROADCAST","MULTICAST","UP"],"mtu":9000,"qdisc":"mq","operstate":"DOWN"`},
		{"gpu01", "ibv_devinfo", "\t\t\tstate:\t\t\tPORT_DOWN (1)\n"},
		{"gpu02", "gids", "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1:IB/RoCE v1\n"},
		{"gpu02", "ibv_devinfo", "\t\t\tGID[  1]:\t\t0000:0000:0000:0000:0000:ffff:0a01:0002, RoCE v1\n"},
		{"gpu03", "nccl", "\nNCCL_IB_GID_INDEX=2\n"},
		{"gpu04", "ip", `"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":4200,`},
		{"gpu04", "ibv_devinfo", "\t\t\tmax_mtu:\t\t2048 (4)\n\t\t\tactive_mtu:\t\t2048 (4)\n"},
		{"gpu05", "ens1f0np0 mlnx_qos", "Priority trust state: pcp\n"},
		{"gpu05", "ens1f1np1 mlnx_qos", "\tprio:0 dscp:26,07,06,05,04,03,02,01,\n"},
		{"gpu06", "ens1f0np0 mlnx_qos", "\tenabled     0   0   0   1   1   0   0   0   \n"},
		{"gpu06", "ens1f0np0 stats", "     rx_prio4_pause: "},
		{"gpu06", "ens1f1np1 pause", "RX:\t\ton\nTX:\t\ton\n"},
		{"gpu06", "ens1f1np1 stats", "     rx_global_pause: "},
		{"gpu07", "ens1f0np0 ecn", "/ecn/roce_np/enable/3:0\n"},
		{"gpu07", "ens1f1np1 ecn", "/ecn/roce_np/cnp_dscp:46\n"},
		{"gpu08", "ens1f0np0 tc", "Global tclass=96\n"},
		{"gpu08", "ens1f1np1 mlnx_qos", "DCBX mode: Firmware controlled\n"},
		{"gpu08", "ens1f1np1 dcb dcbx", `{"cee":true,"ieee":true}`},
	} {
		out, _, _ := hosts[c.host].Exec(context.Background(), cmds[c.cmd])
		if !strings.Contains(out, c.want) {
			t.Errorf("%s %s lacks %q", c.host, c.cmd, c.want)
		}
	}
	// The extra hosts' faults, in the commands that show them (the collector's own strings).
	for _, c := range []struct{ host, cmd, want string }{
		{"gpu12", "ethtool --get-tunable ens1f0np0 pfc-prevention-tout", "pfc-prevention-tout: 8000\n"},
		{"gpu12", "ethtool --get-tunable ens1f1np1 pfc-prevention-tout", "pfc-prevention-tout: 100\n"},
		{"gpu13", "grep -H -s -E '^[[:space:]]*(export[[:space:]]+)?(NCCL_IB_|UCX_IB_TRAFFIC_CLASS)' /etc/nccl.conf /etc/environment /etc/profile.d/*.sh",
			"/etc/environment:NCCL_IB_TC=0\n"},
		{"gpu13", "cat /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106\n"},
	} {
		out, _, _ := hosts[c.host].Exec(context.Background(), c.cmd)
		if !strings.Contains(out, c.want) {
			t.Errorf("%s %s: %q lacks %q", c.host, c.cmd, out, c.want)
		}
	}
	// gpu04 port 0 keeps active_mtu 4096 at MTU 4200 (kernel rule), port 1 is the one at 2048.
	out, _, _ := hosts["gpu04"].Exec(context.Background(), cmds["ibv_devinfo"])
	if strings.Count(out, "\t\t\tactive_mtu:\t\t4096 (5)\n") != 1 {
		t.Errorf("gpu04: want exactly one port at active_mtu 4096:\n%s", out)
	}
}

func TestFaultsTable(t *testing.T) {
	if Faults(ScenarioHealthy) != nil {
		t.Error("healthy has faults")
	}
	seen := map[string]bool{}
	for _, f := range Faults(ScenarioBroken) {
		key := f.Device + ":" + f.Interface
		if seen[key] {
			t.Errorf("two faults on %s", key)
		}
		seen[key] = true
		family, _, _ := strings.Cut(f.Check, "-")
		if !slices.Contains([]string{"HOST", "SW", "LINK", "XFER", "FABRIC", "COLLECT"}, family) || f.Description == "" {
			t.Errorf("fault %+v", f)
		}
	}
	// Every port of gpu03..gpu08, one port of gpu01, gpu02 and gpu10 (the other stays healthy), gpu09,
	// gpu03 as a whole (no perftest), and one port per switch fault on the emulated switches.
	sw := 0
	for _, f := range brokenSwitchFaults {
		if _, ok := switchEmulators[platformOf(f.Device)]; ok {
			sw++
		}
	}
	// gpu11..gpu14 add four, and the fabric faults (the peer link, leaf2's hash) two.
	if len(seen) != 17+4+sw+2 || sw != len(brokenSwitchFaults) || sw != 14 {
		t.Errorf("%d faulty ports/devices and %d switch faults, want %d and 14", len(seen), sw, 17+4+sw+2)
	}
}

// A fault on a host name the scenario does not build (a misspelling) panics naming the host,
// not with a bare index out of range.
func TestDeviceNamedPanicsWithTheName(t *testing.T) {
	ds := []*device{gpu(11), gpu(12)}
	if d := deviceNamed(ds, "gpu12", "broken fault on", "gpu11..gpu12"); d.name != "gpu12" {
		t.Fatalf("found %s", d.name)
	}
	defer func() {
		const want = "lab: broken fault on gpu21, which is not one of gpu11..gpu12"
		if r := recover(); r != want {
			t.Errorf("panic %v, want %q", r, want)
		}
	}()
	deviceNamed(ds, "gpu21", "broken fault on", "gpu11..gpu12")
}
