package linux

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func gid(idx int, raw, ip, typ, ndev string) topology.GID {
	return topology.GID{Index: idx, GID: raw, IP: ip, Type: typ, Netdev: ndev}
}

const (
	v1 = topology.GIDTypeV1
	v2 = topology.GIDTypeV2
)

func TestParseSysfsGIDsVLAN(t *testing.T) {
	got, err := ParseSysfsGIDs(readFixture(t, "ofed-lossless", "gids"))
	if err != nil {
		t.Fatal(err)
	}
	ll := "fe80:0000:0000:0000:0e42:a1ff:fe6b:1a2c"
	want := map[DevPort][]topology.GID{{"mlx5_0", 1}: {
		gid(0, ll, "fe80::e42:a1ff:fe6b:1a2c", v1, "ens1f0np0"),
		gid(1, ll, "fe80::e42:a1ff:fe6b:1a2c", v2, "ens1f0np0"),
		gid(2, "0000:0000:0000:0000:0000:ffff:c0a8:0a0b", "192.168.10.11", v1, "ens1f0np0"),
		gid(3, "0000:0000:0000:0000:0000:ffff:c0a8:0a0b", "192.168.10.11", v2, "ens1f0np0"),
		gid(4, ll, "fe80::e42:a1ff:fe6b:1a2c", v1, "ens1f0np0.100"),
		gid(5, ll, "fe80::e42:a1ff:fe6b:1a2c", v2, "ens1f0np0.100"),
		gid(6, "0000:0000:0000:0000:0000:ffff:c0a8:640b", "192.168.100.11", v1, "ens1f0np0.100"),
		gid(7, "0000:0000:0000:0000:0000:ffff:c0a8:640b", "192.168.100.11", v2, "ens1f0np0.100"),
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// The v1/v2 x IPv4/IPv6 table, plus an InfiniBand port whose ndev file is unreadable.
func TestParseSysfsGIDsIPv4IPv6(t *testing.T) {
	got, err := ParseSysfsGIDs(readFixture(t, "ipv6-gids-no-rdma", "gids"))
	if err != nil {
		t.Fatal(err)
	}
	ll := "fe80:0000:0000:0000:0ac0:ebff:feda:e2ca"
	v4 := "0000:0000:0000:0000:0000:ffff:ac11:f238"
	v6 := "2001:0db8:0242:0000:0000:0000:0000:0056"
	want := map[DevPort][]topology.GID{
		{"mlx5_2", 1}: {
			gid(0, ll, "fe80::ac0:ebff:feda:e2ca", v1, "ens6"),
			gid(1, ll, "fe80::ac0:ebff:feda:e2ca", v2, "ens6"),
			gid(2, v4, "172.17.242.56", v1, "ens6"),
			gid(3, v4, "172.17.242.56", v2, "ens6"),
			gid(4, v6, "2001:db8:242::56", v1, "ens6"),
			gid(5, v6, "2001:db8:242::56", v2, "ens6"),
		},
		{"mlx5_5", 1}: {gid(0, "fe80:0000:0000:0000:08c0:eb03:00b6:a0b4", "fe80::8c0:eb03:b6:a0b4", v1, "")},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseSysfsGIDsMissingAttrs(t *testing.T) {
	// A populated slot whose types/ndevs files could not be read keeps empty fields.
	in := "/sys/class/infiniband/mlx5_0/ports/1/gids/0:fe80:0000:0000:0000:0e42:a1ff:fe6b:1a2c\n" +
		"/sys/class/infiniband/mlx5_0/ports/1/gids/1:0000:0000:0000:0000:0000:0000:0000:0000\n" +
		"/sys/class/infiniband/mlx5_0/ports/1/gids/3:0000:0000:0000:0000:0000:ffff:0a00:0001\n" +
		"/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3:RoCE v2\n"
	got, err := ParseSysfsGIDs(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[DevPort][]topology.GID{{"mlx5_0", 1}: {
		gid(0, "fe80:0000:0000:0000:0e42:a1ff:fe6b:1a2c", "fe80::e42:a1ff:fe6b:1a2c", "", ""),
		gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", "10.0.0.1", v2, ""),
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseSysfsGIDsErrors(t *testing.T) {
	for name, in := range map[string]string{
		"grep message":    "grep: /sys/class/infiniband/*/ports/*/gids/*: No such file or directory\n",
		"not a GID":       "/sys/class/infiniband/mlx5_0/ports/1/gids/0:hello\n",
		"IPv4 not a GID":  "/sys/class/infiniband/mlx5_0/ports/1/gids/0:10.0.0.1\n",
		"unknown type":    "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/0:RoCE v3\n",
		"other sysfs dir": "/sys/class/infiniband/mlx5_0/ports/1/pkeys/0:0xffff\n",
		// The second path is in the first one's directory, which is not split again.
		"bad index after a good one": "/sys/class/infiniband/mlx5_0/ports/1/gids/0:fe80:0000:0000:0000:0000:0000:0000:0001\n" +
			"/sys/class/infiniband/mlx5_0/ports/1/gids/0x:0000:0000:0000:0000:0000:0000:0000:0000\n",
		"port out of range": "/sys/class/infiniband/mlx5_0/ports/99999999999999999999/gids/0:0000:0000:0000:0000:0000:0000:0000:0000\n" +
			"/sys/class/infiniband/mlx5_0/ports/99999999999999999999/gids/1:0000:0000:0000:0000:0000:0000:0000:0000\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := ParseSysfsGIDs(in); err == nil {
				t.Errorf("want an error, got %+v", got)
			}
		})
	}
}

// Ports whose lines interleave are each read whole: a directory seen before another is split
// again when it comes back.
func TestParseSysfsGIDsInterleaved(t *testing.T) {
	in := "/sys/class/infiniband/mlx5_0/ports/1/gids/1:fe80:0000:0000:0000:0000:0000:0000:0001\n" +
		"/sys/class/infiniband/mlx5_1/ports/2/gids/1:fe80:0000:0000:0000:0000:0000:0000:0002\n" +
		"/sys/class/infiniband/mlx5_0/ports/1/gids/3:fe80:0000:0000:0000:0000:0000:0000:0003\n" +
		"/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3:RoCE v2\n" +
		"/sys/class/infiniband/mlx5_1/ports/2/gid_attrs/ndevs/1:eth1\n"
	got, err := ParseSysfsGIDs(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[DevPort][]topology.GID{
		{Dev: "mlx5_0", Port: 1}: {{Index: 1, GID: "fe80:0000:0000:0000:0000:0000:0000:0001", IP: "fe80::1"},
			{Index: 3, GID: "fe80:0000:0000:0000:0000:0000:0000:0003", IP: "fe80::3", Type: "RoCE v2"}},
		{Dev: "mlx5_1", Port: 2}: {{Index: 1, GID: "fe80:0000:0000:0000:0000:0000:0000:0002", IP: "fe80::2", Netdev: "eth1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// splitGIDPath accepts exactly the paths of the expression it replaced, with the same parts.
func TestSplitGIDPathMatchesExpression(t *testing.T) {
	re := regexp.MustCompile(`^/sys/class/infiniband/([^/]+)/ports/(\d+)/(gids|gid_attrs/types|gid_attrs/ndevs)/(\d+)$`)
	for _, p := range []string{
		"/sys/class/infiniband/mlx5_0/ports/1/gids/0",
		"/sys/class/infiniband/mlx5_bond_0/ports/12/gid_attrs/types/255",
		"/sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/7",
		"/sys/class/infiniband//ports/1/gids/0", "/sys/class/infiniband/a/b/ports/1/gids/0",
		"/sys/class/infiniband/mlx5_0/ports/x/gids/0", "/sys/class/infiniband/mlx5_0/ports//gids/0",
		"/sys/class/infiniband/mlx5_0/ports/1/gids/", "/sys/class/infiniband/mlx5_0/ports/1/gids/1a",
		"/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/0", "/sys/class/infiniband/mlx5_0/ports/1/gids/0/1",
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan", "sys/class/infiniband/m/ports/1/gids/0",
		"/sys/class/infiniband/m/ports/1/gids/٣", "/sys/class/infiniband/m/ports/1/ports/2/gids/0",
	} {
		m := re.FindStringSubmatch(p)
		f, ok := splitGIDPath(p)
		if ok != (m != nil) {
			t.Errorf("%s: split %v, expression %v", p, ok, m != nil)
			continue
		}
		if ok && (f != gidFile{dev: m[1], port: m[2], kind: m[3], idx: m[4]}) {
			t.Errorf("%s: split %+v, expression %q", p, f, m[1:])
		}
	}
}
