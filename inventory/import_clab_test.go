package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

func loadTestClab(t *testing.T, path string) (*Inventory, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseContainerlab(path, data, testPlatforms, testEnv())
}

// testConn is the built-in connection of testEnv.
var testConn = Connection{User: "tester", Port: 22, KnownHosts: "/home/tester/.ssh/known_hosts", Timeout: 20 * time.Second, UserDefault: true, PortDefault: true}

func TestContainerlabClos(t *testing.T) {
	const file = "testdata/imports/clab/valid/roce-clos.clab.yml"
	inv, err := loadTestClab(t, file)
	if err != nil {
		t.Fatal(err)
	}
	dev := func(name string, role topology.Role, platform, addr string, line int) DeviceSpec {
		return DeviceSpec{Name: name, Role: role, Platform: platform, Address: addr, Conn: testConn, Line: line}
	}
	link := func(a, ai, b, bi string) topology.Link {
		return topology.Link{A: topology.PortRef{Device: a, Interface: ai}, B: topology.PortRef{Device: b, Interface: bi}, Source: "inventory"}
	}
	want := &Inventory{
		File:   file,
		Recipe: recipe.Default(),
		Devices: []DeviceSpec{
			dev("gpu01", topology.RoleHost, "linux", "172.20.30.101", 45),
			dev("gpu02", topology.RoleHost, "linux", "clab-roce-clos-gpu02", 50),
			dev("spine1", topology.RoleSwitch, "eos", "172.20.30.11", 30),
			dev("spine2", topology.RoleSwitch, "nxos", "172.20.30.12", 34),
			dev("leaf1", topology.RoleSwitch, "sonic", "3fff:172:20:30::21", 37),
			dev("leaf2", topology.RoleSwitch, "cumulus", "172.20.30.22", 40),
		},
		Links: []topology.Link{
			link("spine1", "Ethernet1", "leaf1", "Ethernet0"),
			link("spine1", "Ethernet2", "leaf2", "swp1"),
			link("spine2", "Ethernet1/1", "leaf1", "Ethernet4"),
			link("spine2", "Ethernet1/2", "leaf2", "swp2"),
			link("gpu01", "eth1", "leaf1", "Ethernet8"),
			link("gpu02", "eth1", "leaf2", "swp3"),
		},
	}
	if diff := cmp.Diff(want, inv); diff != "" {
		t.Errorf("inventory (-want +got):\n%s", diff)
	}
}

func TestContainerlabDefaultsPrefixLabels(t *testing.T) {
	inv, err := loadTestClab(t, "testdata/imports/clab/valid/prefix-defaults.clab.yml")
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ Name, Platform, Address string }
	var devs []got
	for _, d := range inv.Devices {
		devs = append(devs, got{d.Name, d.Platform, d.Address})
	}
	want := []got{
		{"gpu1", "linux", "lab-mini-gpu1"},
		{"gpu2", "linux", "10.10.0.2"},
		{"sw1", "sonic", "lab-mini-sw1"},
		{"sw2", "sonic", "lab-mini-sw2"},
	}
	if diff := cmp.Diff(want, devs); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
	// Kind linux: interface names are the container's own.
	wantLinks := []topology.Link{
		{A: topology.PortRef{Device: "sw1", Interface: "eth1"}, B: topology.PortRef{Device: "gpu1", Interface: "eth1"}, Source: "inventory"},
		{A: topology.PortRef{Device: "sw2", Interface: "eth1"}, B: topology.PortRef{Device: "gpu2", Interface: "eth1"}, Source: "inventory"},
	}
	if diff := cmp.Diff(wantLinks, inv.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
}

// containerlab's prefix: changes the container name a node without a management address is
// reached by.
func TestContainerlabContainerNames(t *testing.T) {
	for _, tc := range []struct{ prefix, want string }{
		{"", "clab-lab1-n1"},
		{"prefix: acme\n", "acme-lab1-n1"},
		{"prefix: __lab-name\n", "lab1-n1"},
		{"prefix: \"\"\n", "n1"},
		{"prefix:\n", "n1"},
	} {
		src := "name: lab1\n" + tc.prefix + "topology:\n  nodes:\n    n1: {kind: linux}\n"
		inv, err := parseContainerlab("t.clab.yml", []byte(src), testPlatforms, testEnv())
		if err != nil {
			t.Errorf("%q: %v", tc.prefix, err)
			continue
		}
		if got := inv.Devices[0].Address; got != tc.want {
			t.Errorf("%q: address %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

func TestContainerlabInvalid(t *testing.T) {
	checkInvalidFiles(t, "testdata/imports/clab/invalid/*.clab.yml", 15, func(file string, data []byte) (*Inventory, error) {
		return parseContainerlab(file, data, testPlatforms, testEnv())
	})
}

// A file with several mistakes reports each at its place, in file order.
func TestContainerlabSeveralErrors(t *testing.T) {
	src := `name: multi
topology:
  nodes:
    a: {kind: ceos, mgmt-ipv4: "10.0.0.1/31"}
    b: {kind: junos}
  links:
    - endpoints: ["a:eth1", "c:eth1"]
    - endpoints: ["a:eth2"]
`
	_, err := parseContainerlab("m.clab.yml", []byte(src), testPlatforms, testEnv())
	// b, of a kind roceaudit does not audit, is left out with a warning (TestContainerlabLeftOut).
	want := []string{
		`m.clab.yml:4:32: mgmt-ipv4: "10.0.0.1/31" is not an IP address or DNS name`,
		`m.clab.yml:7:29: links: unknown node "c"`,
		`m.clab.yml:8:18: links: 1 endpoints`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d = %q, want prefix %q", i, lines[i], w)
		}
	}
}

// LoadContainerlab goes through the file system and the process environment.
func TestLoadContainerlab(t *testing.T) {
	t.Setenv("USER", "labuser")
	file := filepath.Join("testdata", "imports", "clab", "valid", "roce-clos.clab.yml")
	inv, err := LoadContainerlab(file, testPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	if inv.File != file || len(inv.Devices) != 6 || inv.Devices[0].Conn.User != "labuser" {
		t.Errorf("file %q, %d devices, user %q", inv.File, len(inv.Devices), inv.Devices[0].Conn.User)
	}
}

// Without a platform registry no kind is known, but a node labelled with its platform is
// imported: linux nodes are hosts and every other platform a switch.
func TestContainerlabNilPlatforms(t *testing.T) {
	src := "name: l\ntopology:\n  nodes:\n    s: {kind: ceos, labels: {roceaudit.platform: eos}}\n    h: {kind: linux, labels: {roceaudit.platform: linux}}\n"
	inv, err := parseContainerlab("t.clab.yml", []byte(src), nil, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if inv.Devices[0].Name != "h" || inv.Devices[0].Role != topology.RoleHost || inv.Devices[1].Role != topology.RoleSwitch {
		t.Errorf("devices %+v", inv.Devices)
	}
}
