package linuxhost

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestActiveMTUKernelRule(t *testing.T) {
	for _, c := range []struct{ mtu, max, want int }{
		{9000, 4096, 4096},
		{4200, 4096, 4096}, // 4200-96 = 4104 still fits 4096
		{4192, 4096, 4096},
		{4191, 4096, 2048},
		{1500, 4096, 1024},
		{9000, 2048, 2048}, // capped by the port
		{1000, 4096, 512},
		{300, 4096, 0},
	} {
		if got := ActiveMTU(c.mtu, c.max); got != c.want {
			t.Errorf("ActiveMTU(%d, %d) = %d, want %d", c.mtu, c.max, got, c.want)
		}
	}
}

func TestGIDTableOrder(t *testing.T) {
	h := gpu01()
	_, p := h.Port(Port0)
	var got []string
	for _, e := range h.GIDTable(p) {
		got = append(got, fmt.Sprintf("%d %s %s %s", e.Index, e.Addr, e.Type, e.Ndev))
	}
	want := []string{
		"0 fe80::e42:a1ff:fe6b:14c IB/RoCE v1 ens1f0np0",
		"1 fe80::e42:a1ff:fe6b:14c RoCE v2 ens1f0np0",
		"2 ::ffff:10.1.0.1 IB/RoCE v1 ens1f0np0",
		"3 ::ffff:10.1.0.1 RoCE v2 ens1f0np0",
		"4 2001:db8:1::1 IB/RoCE v1 ens1f0np0",
		"5 2001:db8:1::1 RoCE v2 ens1f0np0",
		"6 ::ffff:10.100.0.1 IB/RoCE v1 ens1f0np0.100",
		"7 ::ffff:10.100.0.1 RoCE v2 ens1f0np0.100",
		"8 fe80::e42:a1ff:fe6b:14c IB/RoCE v1 ens1f0np0.100",
		"9 fe80::e42:a1ff:fe6b:14c RoCE v2 ens1f0np0.100",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("GID table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	p.V1Only = true
	for _, e := range h.GIDTable(p) {
		if e.Type != GIDTypeV1 {
			t.Errorf("V1Only port has %v", e)
		}
	}
}

func TestVFSGlobGrepCat(t *testing.T) {
	fs := newVFS()
	fs.add("/d/b/x", "1\n")
	fs.add("/d/a/x", "2\nsecond\n")
	fs.add("/d/a/y", "")
	fs.add("/d/a/10", "ten\n")
	fs.addErr("/d/a/z", "Invalid argument")

	if got := strings.Join(fs.glob("/d/*/x"), " "); got != "/d/a/x /d/b/x" {
		t.Errorf("glob sorted = %q", got)
	}
	if got := strings.Join(fs.glob("/d/a/*"), " "); got != "/d/a/10 /d/a/x /d/a/y /d/a/z" {
		t.Errorf("glob lexical = %q", got)
	}
	if got := fs.glob("/nope/*"); len(got) != 1 || got[0] != "/nope/*" {
		t.Errorf("unmatched glob stays literal, got %q", got)
	}

	for _, c := range []struct {
		words []string
		out   string
		exit  int
	}{
		{[]string{"/d/*/x"}, "/d/a/x:2\n/d/a/x:second\n/d/b/x:1\n", 0},
		{[]string{"/d/a/y"}, "", 1},                                       // no line selected
		{[]string{"/d/a/*"}, "/d/a/10:ten\n/d/a/x:2\n/d/a/x:second\n", 2}, // z unreadable
		{[]string{"/d/b/x", "/missing"}, "/d/b/x:1\n", 2},
		{[]string{"/d/b/*", "/d/a/10"}, "/d/b/x:1\n/d/a/10:ten\n", 0}, // words in command order
	} {
		out, errOut, exit := fs.grepAll(c.words, true, true, func(l string) bool { return l != "" })
		if out != c.out || errOut != "" || exit != c.exit {
			t.Errorf("grep %v = %q, %d; want %q, %d", c.words, out, exit, c.out, c.exit)
		}
	}

	if out, errOut, exit := fs.cat([]string{"/d/a/x"}); out != "2\nsecond\n" || errOut != "" || exit != 0 {
		t.Errorf("cat = %q %q %d", out, errOut, exit)
	}
	if _, errOut, exit := fs.cat([]string{"/d/a/z"}); errOut != "cat: /d/a/z: Invalid argument\n" || exit != 1 {
		t.Errorf("cat unreadable = %q %d", errOut, exit)
	}
	if _, errOut, exit := fs.cat([]string{"/d/a"}); errOut != "cat: /d/a: Is a directory\n" || exit != 1 {
		t.Errorf("cat dir = %q %d", errOut, exit)
	}
}

func TestExecShell(t *testing.T) {
	h := gpu01()
	for _, c := range []struct {
		cmd, out, stderr string
		exit             int
	}{
		{"frobnicate --all", "", "bash: line 1: frobnicate: command not found\n", 127},
		{"sudo -n frobnicate", "", "sudo: frobnicate: command not found\n", 1},
		{"cat /etc/shadow", "", "cat: /etc/shadow: No such file or directory\n", 1}, // not a file the lab has
		{"ethtool -s ens1f0np0 speed 10", "", "lab: `ethtool -s ens1f0np0 speed 10` is a valid command line that this emulated device does not render\n", 1},
		{"sudo -n systemctl is-active lldpad", "inactive\n", "", 3},
		{"ethtool -a nosuch0", "", ethtoolNoDev, 1},
		{"dcb -j pfc show dev ens1f0np0.100", "", "Attribute read: Operation not supported\n", 1},
		{"grep -s -H . /sys/class/infiniband/mlx5_9/ports/1/hw_counters/*", "", "", 2},
		{"", "", "", 0},
	} {
		out, errOut, exit := h.Exec(context.Background(), c.cmd)
		if out != c.out || errOut != c.stderr || exit != c.exit {
			t.Errorf("%q = %q, %q, %d; want %q, %q, %d", c.cmd, out, errOut, exit, c.out, c.stderr, c.exit)
		}
	}

	h.MlnxQoS = false
	if _, errOut, exit := h.Exec(context.Background(), "sudo -n mlnx_qos -i ens1f0np0"); exit != 1 || errOut != "sudo: mlnx_qos: command not found\n" {
		t.Errorf("sudo mlnx_qos without mlnx-tools = %q, %d", errOut, exit)
	}
}

// Each program reads its arguments as the real one does: a wrong option, object or verb fails
// with the program's own message and status, never with another command's output.
func TestExecArguments(t *testing.T) {
	h := gpu01()
	for _, c := range []struct {
		cmd, stderr string
		exit        int
	}{
		{"ethtool -x ens1f0np0", ethtoolBadArgs, 1},
		{"ethtool -a", ethtoolBadArgs, 1},
		{"ethtool -a ens1f0np0 extra", ethtoolBadArgs, 1},
		{"ip -q addr show", "Option \"-q\" is unknown, try \"ip -help\".\n", 255},
		{"ip -d -j adr show", "Object \"adr\" is unknown, try \"ip help\".\n", 1},
		{"ip -d -j addr shw", "Command \"shw\" is unknown, try \"ip address help\".\n", 255},
		{"rdma lnk show", "Unknown object \"lnk\".\n", 1},
		{"dcb -j pfx show dev ens1f0np0", "Object \"pfx\" is unknown\n", 1},
		{"dcb -j pfc show ens1f0np0", "What is \"ens1f0np0\"?\n", 1},
		{"grep -W . /etc/nccl.conf", "grep: invalid option -- 'W'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
		{"cat -Q /etc/nccl.conf", "cat: invalid option -- 'Q'\nTry 'cat --help' for more information.\n", 1},
		{"mlnx_qos -x ens1f0np0", mlnxQosUsage + "\nmlnx_qos: error: no such option: -x\n", 2},
		{"systemctl is-actve lldpad", "Unknown command verb 'is-actve'.\n", 1},
		{"lldpcli -f json0 show neighbours", "lldpcli: unknown command from argument 2: `neighbours`\n", 1},
		{"lldpcli -f jsn show neighbors", "lldpcli: unknown output format \"jsn\"\n", 1},
		{"sudo -x ethtool -a ens1f0np0", "sudo: invalid option -- 'x'\nusage: sudo -h | -K | -k | -V\n", 1},
	} {
		out, errOut, exit := h.Exec(context.Background(), c.cmd)
		if out != "" || errOut != c.stderr || exit != c.exit {
			t.Errorf("%q = %q, %q, %d; want stderr %q, exit %d", c.cmd, out, errOut, exit, c.stderr, c.exit)
		}
	}
	// The same tools in the forms the real ones also take answer the same output.
	for _, pair := range [][2]string{
		{"ip -d -j addr show", "ip --json -details a"},
		{"ethtool -a ens1f0np0", "ethtool --show-pause ens1f0np0"},
		{"mlnx_qos -i ens1f0np0", "mlnx_qos --interface=ens1f0np0"},
		{"grep -s -H . /sys/class/net/ens1f0np0/mtu", "grep -sH . /sys/class/net/ens1f0np0/mtu"},
		{"dcb -j pfc show dev ens1f0np0", "sudo dcb --json pfc sh dev ens1f0np0"},
	} {
		want, _, wantExit := h.Exec(context.Background(), pair[0])
		got, errOut, exit := h.Exec(context.Background(), pair[1])
		if want == "" || got != want || exit != wantExit || errOut != "" {
			t.Errorf("%q = %q, %d (stderr %q); want what %q answers (%d)", pair[1], got, exit, errOut, pair[0], wantExit)
		}
	}
}

// The extension answers only what the host does not know, gets the command line as sent
// (sudo prefix included), runs without the state lock, and falls back to "command not found".
func TestExecExtension(t *testing.T) {
	h := gpu01()
	var got []string
	h.Extension = func(_ context.Context, cmd string) (string, string, int, bool) {
		got = append(got, cmd)
		if !strings.Contains(cmd, "ib_write_bw") {
			return "", "", 0, false
		}
		h.Update(func(h *Host) { h.Netdev(Port0).Eth.Stats["tx_prio3_packets"]++ }) // would deadlock under the lock
		return "ran\n", "", 0, true
	}
	ctx := context.Background()
	if out, _, exit := h.Exec(ctx, "sudo -n timeout 5 ib_write_bw -d mlx5_0"); out != "ran\n" || exit != 0 {
		t.Errorf("extension command = %q %d", out, exit)
	}
	if _, errOut, exit := h.Exec(ctx, "frobnicate"); exit != 127 || errOut != "bash: line 1: frobnicate: command not found\n" {
		t.Errorf("unknown to both = %q %d", errOut, exit)
	}
	if out, _, _ := h.Exec(ctx, "rdma link show"); !strings.HasPrefix(out, "link mlx5_0/1") {
		t.Errorf("own command = %q", out)
	}
	if strings.Join(got, "|") != "sudo -n timeout 5 ib_write_bw -d mlx5_0|frobnicate" {
		t.Errorf("extension saw %q", got)
	}
}

// State changes show in every tool that reports them.
func TestRenderFollowsState(t *testing.T) {
	h := gpu01()
	run := func(cmd string) string {
		out, _, _ := h.Exec(context.Background(), cmd)
		return out
	}

	h.Netdev(Port1).Carrier = false
	_, p := h.Port(Port1)
	p.Disabled = true
	if got := run("rdma link show"); !strings.Contains(got, "link mlx5_1/1 state DOWN physical_state DISABLED netdev ens1f1np1\n") {
		t.Errorf("rdma link after disable:\n%s", got)
	}
	dev := run("ibv_devinfo -v")
	for _, want := range []string{"\t\t\tstate:\t\t\tPORT_DOWN (1)\n", "\t\t\tphys_state:\t\tDISABLED (3)\n"} {
		if !strings.Contains(dev, want) {
			t.Errorf("ibv_devinfo lacks %q", want)
		}
	}
	if got := run("ip -d -j addr show"); !strings.Contains(got, `"ifname":"ens1f1np1","flags":["NO-CARRIER","BROADCAST","MULTICAST","UP"],"mtu":9000,"qdisc":"mq","operstate":"DOWN"`) {
		t.Errorf("ip addr does not show the port down")
	}

	h.Netdev(Port0).MTU = 1500
	if got := run("ibv_devinfo -v"); !strings.Contains(got, "\t\t\tactive_mtu:\t\t1024 (3)\n") {
		t.Errorf("active_mtu does not follow the netdev MTU")
	}

	e := h.Netdev(Port0).Eth
	e.PFC[4] = true
	e.PauseRX, e.PauseTX = true, true
	stats := run("ethtool -S ens1f0np0")
	for _, want := range []string{"     rx_prio4_pause: 0\n", "     rx_global_pause: 0\n", "     tx_prio3_pause: "} {
		if !strings.Contains(stats, want) {
			t.Errorf("ethtool -S lacks %q", want)
		}
	}
	if strings.Contains(run("ethtool -S ens1f1np1"), "global_pause") {
		t.Errorf("global pause counters on a port without link pause")
	}
	if got := run("ethtool -a ens1f0np0"); !strings.Contains(got, "RX:\t\ton\nTX:\t\ton\n") {
		t.Errorf("ethtool -a:\n%s", got)
	}

	e.DSCP2Prio[26] = 0
	qos := run("mlnx_qos -i ens1f0np0")
	for _, want := range []string{"\tprio:0 dscp:26,07,06,05,04,03,02,01,\n\tprio:0 dscp:00,\n", "\tprio:3 dscp:31,30,29,28,27,25,24,\n"} {
		if !strings.Contains(qos, want) {
			t.Errorf("mlnx_qos lacks %q:\n%s", want, qos)
		}
	}
	if !strings.Contains(run("dcb -j -N app show dev ens1f0np0"), `[26,0," "]`) {
		t.Errorf("dcb app does not show DSCP 26 -> 0")
	}
	e.Trust = "pcp"
	if got := run("dcb -j -N app show dev ens1f0np0"); got != "{}\n" {
		t.Errorf("dcb app with trust pcp = %q", got)
	}
	e.DCBXHost = false
	if got := run("mlnx_qos -i ens1f0np0"); !strings.HasPrefix(got, "DCBX mode: Firmware controlled\nPriority trust state: pcp\nReceive buffer") {
		t.Errorf("mlnx_qos firmware/pcp:\n%s", got)
	}

	h.OFED = false
	if out, _, exit := h.Exec(context.Background(), cmdECN0); out != "" || exit != 2 {
		t.Errorf("inbox driver ECN grep = %q, %d", out, exit)
	}
	tos := 106
	p.DefaultRoCEToS = &tos
	if got := run("cat /sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos"); got != "106\n" {
		t.Errorf("default_roce_tos = %q", got)
	}
}
