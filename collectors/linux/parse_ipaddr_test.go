package linux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/topology"
)

func TestParseIPAddrFixture(t *testing.T) {
	got, err := ParseIPAddr(readFixture(t, "ofed-lossless", "ip_addr"))
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.Netdev{
		{Name: "lo", MTU: 65536, OperState: "UNKNOWN", MAC: "00:00:00:00:00:00", Addresses: []string{"127.0.0.1", "::1"}},
		{Name: "eno1", MTU: 1500, OperState: "UP", MAC: "3c:ec:ef:52:90:10", Addresses: []string{"10.20.0.11", "fe80::3eec:efff:fe52:9010"}},
		{Name: "ens1f0np0", MTU: 9000, OperState: "UP", MAC: "0c:42:a1:6b:1a:2c", Addresses: []string{"192.168.10.11", "fe80::e42:a1ff:fe6b:1a2c"}},
		{Name: "ens1f0np0.100", MTU: 9000, OperState: "UP", MAC: "0c:42:a1:6b:1a:2c", Kind: "vlan", Lower: "ens1f0np0", VLANID: 100,
			Addresses: []string{"192.168.100.11", "fe80::e42:a1ff:fe6b:1a2c"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParseIPAddr mismatch (-want +got):\n%s", d)
	}
}

func TestParseIPAddrGlobalIPv6(t *testing.T) {
	got, err := ParseIPAddr(readFixture(t, "ipv6-gids-no-rdma", "ip_addr"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"172.17.242.56", "2001:db8:242::56", "fe80::ac0:ebff:feda:e2ca"}, got[2].Addresses); d != "" {
		t.Errorf("ens6 addresses (-want +got):\n%s", d)
	}
}

func TestParseIPAddrBondMember(t *testing.T) {
	in := `[{"ifindex":4,"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","SLAVE","UP","LOWER_UP"],"mtu":9000,"master":"bond0","operstate":"UP","linkinfo":{"info_slave_kind":"bond","info_slave_data":{"state":"ACTIVE"}},"addr_info":[]},` +
		`{"ifindex":7,"ifname":"bond0","mtu":9000,"operstate":"UP","linkinfo":{"info_kind":"bond","info_data":{"mode":"802.3ad"}},"addr_info":[{"family":"inet","local":"10.0.0.5","prefixlen":24}]}]`
	got, err := ParseIPAddr(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []topology.Netdev{
		{Name: "ens1f0np0", MTU: 9000, OperState: "UP", Master: "bond0"},
		{Name: "bond0", MTU: 9000, OperState: "UP", Kind: "bond", Addresses: []string{"10.0.0.5"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// Only a 48-bit MAC is kept: ip prints a tunnel's IPv4 and IPoIB's 20-byte hardware address
// in the same "address" key, and a wireguard link has none.
func TestParseIPAddrNonEthernetAddresses(t *testing.T) {
	in := `[{"ifindex":5,"ifname":"gre1","flags":["POINTOPOINT","NOARP","UP","LOWER_UP"],"mtu":1476,"operstate":"UNKNOWN","link_type":"gre","address":"0.0.0.0","broadcast":"0.0.0.0","addr_info":[]},` +
		`{"ifindex":6,"ifname":"ib0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":2044,"operstate":"UP","link_type":"infiniband","address":"00:00:10:29:fe:80:00:00:00:00:00:00:24:8a:07:03:00:a4:e3:3e","broadcast":"00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff","addr_info":[]},` +
		`{"ifindex":7,"ifname":"wg0","flags":["POINTOPOINT","NOARP","UP","LOWER_UP"],"mtu":1420,"operstate":"UNKNOWN","link_type":"none","addr_info":[]},` +
		`{"ifindex":8,"ifname":"ens2f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000,"operstate":"UP","link_type":"ether","address":"b8:ce:f6:0a:1b:2c","broadcast":"ff:ff:ff:ff:ff:ff","addr_info":[]}]`
	got, err := ParseIPAddr(in)
	if err != nil {
		t.Fatal(err)
	}
	var macs []string
	for _, n := range got {
		macs = append(macs, n.Name+"="+n.MAC)
	}
	if d := cmp.Diff([]string{"gre1=", "ib0=", "wg0=", "ens2f0np0=b8:ce:f6:0a:1b:2c"}, macs); d != "" {
		t.Errorf("MACs (-want +got):\n%s", d)
	}
}

func TestParseIPAddrErrors(t *testing.T) {
	for name, in := range map[string]string{
		"empty":           "",
		"old iproute2":    "Option \"-j\" is unknown, try \"ip -help\".\n",
		"object":          `{"ifname":"eth0"}`,
		"no mtu":          `[{"ifname":"eth0","operstate":"UP"}]`,
		"vlan without id": `[{"ifname":"eth0.5","mtu":1500,"linkinfo":{"info_kind":"vlan","info_data":{"protocol":"802.1Q"}}}]`,
		"only empties":    `[{},{}]`,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseIPAddr(in)
			if err == nil {
				t.Fatalf("want an error, got %+v", got)
			}
			if !strings.Contains(err.Error(), "ip addr") {
				t.Errorf("error %q does not name its source", err)
			}
		})
	}
}

// Every recorded ip -j output takes the scan, not the encoding/json fallback.
func TestIPAddrFixturesTakeTheScan(t *testing.T) {
	fixturesTakeTheScan(t, "ip_addr*", "[", func(s string) bool { _, _, ok := scanIPLinks(s); return ok })
}

// fixturesTakeTheScan fails for a recorded output (fixtures matching glob that start with
// start, as the tool's JSON does) that scan declines: a fast path that never runs on real
// output would hide behind its fallback.
func fixturesTakeTheScan(t *testing.T, glob, start string, scan func(string) bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtureRoot, "*", glob))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s fixture: %v", glob, err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !scan(string(b)) && strings.HasPrefix(strings.TrimSpace(string(b)), start) {
			t.Errorf("%s: the scan declined the tool's own output", file)
		}
	}
}
