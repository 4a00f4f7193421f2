package linux

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/roceaudit/roceaudit/collectors/perftest"
	"github.com/roceaudit/roceaudit/inventory"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

// linuxCommands is the command set of commands.go, spelled out byte for byte: the allowlist
// holds exactly these and the lab's emulated host answers exactly these.
var linuxCommands = []string{
	"ip -d -j addr show",
	"rdma link show",
	"ibv_devinfo -v",
	"grep -s -H -E '[^0:]' /sys/class/infiniband/*/ports/*/gids/* /sys/class/infiniband/*/ports/*/gid_attrs/types/* /sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*",
	"cat /etc/nccl.conf",
	"systemctl is-active lldpad",
	"lldpcli -f json0 show neighbors",
	"grep -H -s -E '^[[:space:]]*(export[[:space:]]+)?(NCCL_IB_|UCX_IB_TRAFFIC_CLASS)' /etc/nccl.conf /etc/environment /etc/profile.d/*.sh",
	"pgrep -x lldpad",
	"mlnx_qos -i {if}",
	"dcb -j -N app show dev {if}",
	"dcb -j pfc show dev {if}",
	"dcb -j dcbx show dev {if}",
	"ethtool -a {if}",
	"grep -s -H . /sys/class/net/{if}/ecn/roce_np/enable/* /sys/class/net/{if}/ecn/roce_rp/enable/* /sys/class/net/{if}/ecn/roce_np/cnp_dscp /sys/class/net/{if}/ecn/roce_np/cnp_802p_prio",
	"cat /sys/class/infiniband/{dev}/tc/{port}/traffic_class",
	"cat /sys/kernel/config/rdma_cm/{dev}/ports/{port}/default_roce_tos",
	"ethtool -S {if}",
	"grep -s -H . /sys/class/infiniband/{dev}/ports/{port}/hw_counters/*",
	"ethtool --get-tunable {if} pfc-prevention-tout",
}

func TestPlatformIdentity(t *testing.T) {
	p := Descriptor()
	if p.Name() != "linux" || p.Role() != topology.RoleHost {
		t.Errorf("Name %q Role %q", p.Name(), p.Role())
	}
	want := append(append([]string(nil), linuxCommands...), perftest.Templates()...)
	if d := cmp.Diff(want, p.Allowlist().Templates()); d != "" {
		t.Errorf("allowlist differs from linux-commands.md (-want +got):\n%s", d)
	}
}

func TestAllowlistRefusesWrites(t *testing.T) {
	a := Descriptor().Allowlist()
	for _, ok := range []string{"ethtool -a ens1f0np0", "sudo -n mlnx_qos -i ens1f0np0.100", "cat /sys/class/infiniband/mlx5_bond_0/tc/1/traffic_class",
		"sudo -n lldpcli -f json0 show neighbors"} {
		if !a.Allows(ok) {
			t.Errorf("refused %q", ok)
		}
	}
	for _, bad := range []string{
		"mlnx_qos -i ens1f0np0 --trust dscp",
		"ethtool -A ens1f0np0 rx off",
		"mkdir /sys/kernel/config/rdma_cm/mlx5_0",
		"cat /sys/class/infiniband/mlx5_0/tc/1/traffic_class; reboot",
		"cat /sys/class/infiniband/../../../etc/shadow/tc/1/traffic_class",
		"dcb app add dev ens1f0np0 dscp-prio 26:3",
		// lldpcli reads only: its configure, update and pause commands change lldpd
		"lldpcli configure system hostname leaf1",
		"lldpcli update",
		"lldpcli pause",
		"lldpcli -f json0 show neighbors; lldpcli pause",
	} {
		if a.Allows(bad) {
			t.Errorf("allowed %q", bad)
		}
	}
}

func TestPlan(t *testing.T) {
	p := Descriptor()
	all := p.Plan(inventory.DeviceSpec{Name: "gpu01"})
	if d := cmp.Diff(linuxCommands, all); d != "" {
		t.Errorf("Plan without interfaces should list the templates (-want +got):\n%s", d)
	}

	got := p.Plan(inventory.DeviceSpec{Name: "gpu01", Interfaces: []string{"ens1f0np0", "ens1f1np1"}, Conn: inventory.Connection{Sudo: true}})
	if len(got) != 9+2*8+3 { // discovery and its fallback, 8 {if} commands per interface, 3 {dev}/{port} templates once
		t.Errorf("%d commands: %q", len(got), got)
	}
	want := map[string]bool{
		"sudo -n ip -d -j addr show":                                      true,
		"sudo -n lldpcli -f json0 show neighbors":                         true,
		"sudo -n mlnx_qos -i ens1f1np1":                                   true,
		"sudo -n dcb -j pfc show dev ens1f0np0":                           true,
		"sudo -n cat /sys/class/infiniband/{dev}/tc/{port}/traffic_class": true,
	}
	a := p.Allowlist()
	for _, c := range got {
		delete(want, c)
		if !containsPlaceholder(c) && !a.Allows(c) {
			t.Errorf("planned %q is not allowlisted", c)
		}
	}
	if len(want) > 0 {
		t.Errorf("plan lacks %v", want)
	}
}

func containsPlaceholder(s string) bool {
	return strings.Contains(s, "{if}") || strings.Contains(s, "{dev}") || strings.Contains(s, "{port}")
}

func TestFixtureFile(t *testing.T) {
	for cmd, want := range map[string]string{
		"ip -d -j addr show":                                  "ip_addr",
		"sudo -n cat /etc/nccl.conf":                          "nccl.conf",
		"lldpcli -f json0 show neighbors":                     "lldpcli",
		"mlnx_qos -i ens1f0np0.100":                           "mlnx_qos.ens1f0np0.100",
		"dcb -j -N app show dev enp59s0f0np0":                 "dcb_app.enp59s0f0np0",
		"ethtool -S ens6":                                     "ethtool_S.ens6",
		"ethtool -a ens6":                                     "ethtool_a.ens6",
		"cat /sys/class/infiniband/mlx5_1/tc/1/traffic_class": "traffic_class.mlx5_1.1",
		"grep -s -H . /sys/class/infiniband/rocep59s0f0/ports/1/hw_counters/*": "hw_counters.rocep59s0f0.1",
		"cat /sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos":       "default_roce_tos.mlx5_2.1",
		"grep -s -H . /sys/class/net/ens6/ecn/roce_np/enable/* /sys/class/net/ens6/ecn/roce_rp/enable/* /sys/class/net/ens6/ecn/roce_np/cnp_dscp /sys/class/net/ens6/ecn/roce_np/cnp_802p_prio": "ecn.ens6",
	} {
		if got, ok := FixtureFile(cmd); !ok || got != want {
			t.Errorf("FixtureFile(%q) = %q, %v; want %q", cmd, got, ok, want)
		}
	}
	for _, cmd := range []string{
		"reboot",
		"ethtool -a ens6; id",
		// the {if} values of the ecn grep must agree
		"grep -s -H . /sys/class/net/ens6/ecn/roce_np/enable/* /sys/class/net/eth0/ecn/roce_rp/enable/* /sys/class/net/ens6/ecn/roce_np/cnp_dscp /sys/class/net/ens6/ecn/roce_np/cnp_802p_prio",
	} {
		if got, ok := FixtureFile(cmd); ok {
			t.Errorf("FixtureFile(%q) = %q, want no fixture", cmd, got)
		}
	}
}

func TestReadFixture(t *testing.T) {
	fsys := fstest.MapFS{
		"ethtool_a.ens6":                 {Data: []byte("Pause parameters for ens6:\n")},
		"mlnx_qos.ens6.exit":             {Data: []byte("127\n")},
		"mlnx_qos.ens6.stderr":           {Data: []byte("bash: line 1: mlnx_qos: command not found\n")},
		"traffic_class.mlx5_2.1":         {Data: []byte("")},
		"default_roce_tos.mlx5_2.1.exit": {Data: []byte("one")},
	}
	out, err := ReadFixture(fsys, "sudo -n mlnx_qos -i ens6")
	if err != nil || out.ExitCode != 127 || out.Stdout != "" || out.Stderr != "bash: line 1: mlnx_qos: command not found\n" {
		t.Errorf("mlnx_qos: %+v, %v", out, err)
	}
	out, err = ReadFixture(fsys, "ethtool -a ens6")
	if err != nil || out.ExitCode != 0 || out.Stdout != "Pause parameters for ens6:\n" {
		t.Errorf("ethtool: %+v, %v", out, err)
	}
	// an empty stdout file is an answer (traffic_class unset), not a missing fixture
	if out, err = ReadFixture(fsys, "cat /sys/class/infiniband/mlx5_2/tc/1/traffic_class"); err != nil || out.Stdout != "" {
		t.Errorf("traffic_class: %+v, %v", out, err)
	}
	if _, err = ReadFixture(fsys, "ethtool -S ens6"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing fixture: err %v, want fs.ErrNotExist", err)
	}
	if _, err = ReadFixture(fsys, "cat /sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos"); err == nil {
		t.Error("a non-numeric .exit file must be an error")
	}
	if _, err = ReadFixture(fsys, "reboot"); err == nil {
		t.Error("a command outside the set must be an error")
	}
}

// Every fixture file belongs to a command of the set (or is its .exit/.stderr companion), so
// the fixture tree cannot drift from the command set unnoticed.
func TestFixtureTreeMatchesCommandSet(t *testing.T) {
	keys := map[string]bool{}
	for _, fk := range fixtureKeys {
		keys[fk.key] = true
	}
	n := 0
	err := fs.WalkDir(osDirFS(fixtureRoot), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		name := d.Name()
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".exit"), ".stderr")
		for k := range keys {
			if name == k || strings.HasPrefix(name, k+".") {
				return nil
			}
		}
		t.Errorf("fixture %s matches no command of the set", path)
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("walk: %v (%d files)", err, n)
	}
}
