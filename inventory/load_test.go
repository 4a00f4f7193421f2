package inventory

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/roceaudit/roceaudit/recipe"
	"github.com/roceaudit/roceaudit/topology"
)

// testPlatforms is the platform registry (README.md, "Inventory"): linux hosts and four switch NOSes, with the
// containerlab kinds and Ansible network OS values the product maps to them.
var testPlatforms Platforms = testRegistry{}

type testRegistry struct{}

func (testRegistry) Role(name string) (topology.Role, bool) {
	switch name {
	case "linux":
		return topology.RoleHost, true
	case "sonic", "cumulus", "eos", "nxos":
		return topology.RoleSwitch, true
	}
	return "", false
}

// ClabKinds are the product's kinds; the switch kinds rename the ports the tests wire (the
// platforms' own renaming is tested with them).
func (testRegistry) ClabKinds() map[string]ClabKind {
	renamed := func(platform string, names ...string) ClabKind {
		return ClabKind{Platform: platform, Port: func(iface string) string {
			for i := 0; i+1 < len(names); i += 2 {
				if names[i] == iface {
					return names[i+1]
				}
			}
			return iface
		}}
	}
	ceos := renamed("eos", "eth1", "Ethernet1", "eth2", "Ethernet2", "eth3", "Ethernet3")
	n9kv := renamed("nxos", "eth1", "Ethernet1/1", "eth2", "Ethernet1/2")
	sonic := renamed("sonic", "eth1", "Ethernet0", "eth2", "Ethernet4", "eth3", "Ethernet8")
	return map[string]ClabKind{
		"linux":    {Platform: "linux"},
		"sonic-vs": sonic, "sonic-vm": sonic,
		"cvx": {Platform: "cumulus"}, "cumulus_cvx": {Platform: "cumulus"}, "nvidia_cumulusvx": {Platform: "cumulus"},
		"ceos": ceos, "arista_ceos": ceos, "vr-veos": {Platform: "eos"}, "vr-arista_veos": {Platform: "eos"}, "arista_veos": {Platform: "eos"},
		"cisco_n9kv": n9kv, "vr-n9kv": n9kv, "vr-cisco_n9kv": n9kv,
	}
}

func (testRegistry) AnsibleNetworkOS() map[string]string {
	return map[string]string{
		"arista.eos.eos": "eos", "eos": "eos",
		"cisco.nxos.nxos": "nxos", "nxos": "nxos",
		"dellemc.enterprise_sonic.sonic": "sonic", "sonic": "sonic",
		"nvidia.nvue.*": "cumulus", "nvue": "cumulus", "cumulus": "cumulus",
	}
}

func testEnv() inventoryEnv {
	return inventoryEnv{
		user: func() string { return "tester" },
		home: func() (string, error) { return "/home/tester", nil },
	}
}

func loadTestInventory(t *testing.T, path string, env inventoryEnv) (*Inventory, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseInventory(path, data, testPlatforms, env)
}

// countErrors is how many InventoryErrors err carries (joined or single).
func countErrors(err error) int {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return len(j.Unwrap())
	}
	var ie *Error
	if errors.As(err, &ie) {
		return 1
	}
	return 0
}

// TestInvalidInventories runs every file in testdata/inventory/invalid. Its first line is
// `# want: :LINE:COL: message`; the file must fail with exactly that one error.
func TestInvalidInventories(t *testing.T) {
	files, err := filepath.Glob("testdata/inventory/invalid/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 15 {
		t.Fatalf("found %d invalid fixtures, expected at least 15", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok || !strings.HasPrefix(want, ":") {
				t.Fatalf("first line %q is not `# want: :LINE:...`", first)
			}
			inv, err := parseInventory(file, data, testPlatforms, testEnv())
			if err == nil {
				t.Fatalf("loaded without error: %+v", inv)
			}
			if inv != nil {
				t.Errorf("got an inventory along with the error")
			}
			if got := err.Error(); !strings.HasPrefix(got, file+want) {
				t.Errorf("error:\n  %s\nwant it to start with:\n  %s", got, file+want)
			}
			if n := countErrors(err); n != 1 {
				t.Errorf("got %d errors, want exactly 1:\n%v", n, err)
			}
			var ie *Error
			if !errors.As(err, &ie) || ie.File != file {
				t.Errorf("error is not an *InventoryError for %s: %#v", file, err)
			}
		})
	}
}

func TestValidDefaultsAndOverrides(t *testing.T) {
	const file = "testdata/inventory/valid/defaults.yaml"
	inv, err := loadTestInventory(t, file, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	base := Connection{
		User: "netops", Port: 2222, IdentityFile: "/etc/roceaudit/id_ed25519",
		KnownHosts: "/etc/roceaudit/known_hosts", Timeout: 45 * time.Second, Sudo: true,
		Jump: "bastion.example.net", PasswordEnv: "FABRIC_PASSWORD",
	}
	with := func(f func(c *Connection)) Connection { c := base; f(&c); return c }
	nics := []string{"ens1f0np0", "ens1f1np1"}
	want := &Inventory{
		File:   file,
		Recipe: recipe.Default(),
		Devices: []DeviceSpec{
			{Name: "gpu01", Role: topology.RoleHost, Platform: "linux", Address: "10.0.0.11", Interfaces: nics, GIDIndex: &three, Conn: base, Line: 25},
			{Name: "gpu02", Role: topology.RoleHost, Platform: "linux", Address: "fe80::1%ens1f0np0", Interfaces: nics, Line: 29,
				Conn: with(func(c *Connection) { c.IdentityFile, c.Timeout, c.PasswordEnv = "", 90*time.Second, "" })},
			{Name: "leaf1", Role: topology.RoleSwitch, Platform: "sonic", Address: "leaf1.example.net", Line: 14,
				Conn: with(func(c *Connection) { c.User, c.Sudo, c.Jump = "admin", false, "" })},
			{Name: "spine1", Role: topology.RoleSwitch, Platform: "eos", Address: "10.0.2.1", Line: 20,
				Conn: with(func(c *Connection) { c.Port = 22 })},
		},
		Links: []topology.Link{
			{A: topology.PortRef{Device: "gpu01", Interface: "ens1f0np0"}, B: topology.PortRef{Device: "leaf1", Interface: "Ethernet0"}, Source: "inventory"},
			{A: topology.PortRef{Device: "leaf1", Interface: "Ethernet48"}, B: topology.PortRef{Device: "spine1", Interface: "Ethernet1/1"}, Source: "inventory"},
		},
		Paths: [][2]string{{"gpu01:ens1f0np0", "gpu02:ens1f1np1"}, {"gpu01", "10.0.0.12"}, {"10.0.0.11", "fd00::12"}},
	}
	if diff := cmp.Diff(want, inv); diff != "" {
		t.Errorf("inventory (-want +got):\n%s", diff)
	}
}

func TestValidBuiltinDefaults(t *testing.T) {
	inv, err := loadTestInventory(t, "testdata/inventory/valid/minimal.yaml", testEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := []DeviceSpec{{
		Name: "gpu01", Role: topology.RoleHost, Platform: "linux", Address: "gpu01.example.net", Line: 4,
		Conn: Connection{User: "tester", Port: 22, KnownHosts: "/home/tester/.ssh/known_hosts", Timeout: 20 * time.Second, UserDefault: true, PortDefault: true},
	}}
	if diff := cmp.Diff(want, inv.Devices); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
	if inv.Links != nil || inv.Paths != nil {
		t.Errorf("links %v, paths %v: want none", inv.Links, inv.Paths)
	}
}

func TestValidRecipeOverrideMerged(t *testing.T) {
	inv, err := loadTestInventory(t, "testdata/inventory/valid/recipe_override.yaml", testEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := recipe.Default()
	want.RoCEPriority, want.RoCEDSCP, want.RoCEToS, want.PFCWatchdog = 4, 24, []int{96, 98}, false
	if diff := cmp.Diff(want, inv.Recipe); diff != "" {
		t.Errorf("recipe (-want +got):\n%s", diff)
	}
}

func TestValidTildeExpansion(t *testing.T) {
	inv, err := loadTestInventory(t, "testdata/inventory/valid/tilde.yaml", testEnv())
	if err != nil {
		t.Fatal(err)
	}
	got := inv.Devices[0].Conn
	if got.IdentityFile != "/home/tester/keys/leaf" || got.KnownHosts != "/home/tester/lab/known_hosts" {
		t.Errorf("identity_file %q, known_hosts %q: want /home/tester/keys/leaf, /home/tester/lab/known_hosts",
			got.IdentityFile, got.KnownHosts)
	}
}

// The lab writes DIR/inventory.yaml naming known_hosts relatively; it must resolve against
// DIR, not the working directory. This goes through the exported entry point.
func TestLoadInventoryRelativePaths(t *testing.T) {
	file := filepath.Join("testdata", "inventory", "valid", "lab", "inventory.yaml")
	inv, err := Load(file, testPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dev                      string
		port                     int
		knownHosts, identityFile string
	}{
		{"gpu01", 40001, filepath.Join(dir, "known_hosts"), filepath.Join(dir, "keys", "id_ed25519")},
		{"leaf1", 40002, filepath.Join(filepath.Dir(dir), "other_known_hosts"), filepath.Join(dir, "keys", "id_ed25519")},
	} {
		d, ok := inv.Device(tc.dev)
		if !ok {
			t.Fatalf("no device %s", tc.dev)
		}
		if d.Conn.Port != tc.port || d.Conn.KnownHosts != tc.knownHosts || d.Conn.IdentityFile != tc.identityFile {
			t.Errorf("%s: port %d known_hosts %q identity_file %q; want %d %q %q", tc.dev,
				d.Conn.Port, d.Conn.KnownHosts, d.Conn.IdentityFile, tc.port, tc.knownHosts, tc.identityFile)
		}
	}
}

func TestLoadInventoryMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), testPlatforms)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want one wrapping os.ErrNotExist", err)
	}
}

// Several problems are all reported, in file order, each with its own place.
func TestSeveralErrorsInFileOrder(t *testing.T) {
	src := `version: 1
links:
  - [gpu01:eth0, nosuch:eth0]
hosts:
  - name: gpu01
    address: 10.0.0.11
    port: x
  - name: gpu02
    adress: 10.0.0.12
`
	_, err := parseInventory("inv.yaml", []byte(src), testPlatforms, testEnv())
	want := []string{
		`inv.yaml:3:18: links: unknown device "nosuch"`,
		`inv.yaml:7:11: port: "x" is not an integer`,
		`inv.yaml:8:5: host "gpu02" has no address`,
		`inv.yaml:9:5: unknown key "adress" in a host`,
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

// A mistake repeated on every device is capped, not printed a thousand times.
func TestErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nhosts:\n")
	for range 30 {
		b.WriteString("  - {name: gpu, address: 10.0.0.1, port: x}\n")
	}
	_, err := parseInventory("inv.yaml", []byte(b.String()), testPlatforms, testEnv())
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	// The first device's bad port and 29 duplicate names: 20 shown and a count of the rest.
	if len(lines) != maxInventoryErrors+1 || lines[len(lines)-1] != "inv.yaml: 10 more errors not shown" {
		t.Errorf("got %d lines ending %q", len(lines), lines[len(lines)-1])
	}
}

// Without $USER nor a home directory, the built-in defaults cannot be filled in: that is
// reported once, at the first device that needs them, and not at all when the file sets them.
func TestEnvironmentWithoutUserOrHome(t *testing.T) {
	bare := inventoryEnv{
		user: func() string { return "" },
		home: func() (string, error) { return "", errors.New("$HOME is not defined") },
	}
	src := "version: 1\nhosts:\n  - {name: a, address: 10.0.0.1}\n  - {name: b, address: 10.0.0.2}\n"
	_, err := parseInventory("inv.yaml", []byte(src), testPlatforms, bare)
	if err == nil {
		t.Fatal("no error")
	}
	if n := countErrors(err); n != 2 {
		t.Errorf("got %d errors, want 2 (user and known_hosts, once each):\n%v", n, err)
	}
	for _, w := range []string{"inv.yaml:3:5: no SSH user", "inv.yaml:3:5: known_hosts: default ~/.ssh/known_hosts"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}

	src = "version: 1\ndefaults: {user: ops, known_hosts: /etc/kh}\nhosts:\n  - {name: a, address: 10.0.0.1}\n"
	if _, err := parseInventory("inv.yaml", []byte(src), testPlatforms, bare); err != nil {
		t.Errorf("defaults set user and known_hosts, still: %v", err)
	}
}

// A nil platform callback accepts any platform and keeps the role of the section.
func TestNilPlatforms(t *testing.T) {
	src := "version: 1\nswitches:\n  - {name: sw, address: 10.0.0.1, platform: junos}\n"
	inv, err := parseInventory("inv.yaml", []byte(src), nil, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if d := inv.Devices[0]; d.Platform != "junos" || d.Role != topology.RoleSwitch {
		t.Errorf("got platform %q role %q", d.Platform, d.Role)
	}
}

// Every key of recipe.Recipe can be set from the inventory, so a field added to the recipe
// cannot silently become unreadable.
func TestRecipeEveryKey(t *testing.T) {
	src := `version: 1
recipe:
  roce_priority: 5
  roce_dscp: 30
  roce_tos: [120, 122]
  cnp_dscp: 46
  cnp_priority: 7
  host_mtu: 4200
  switch_mtu: 9100
  roce_mtu: 2048
  dcbx: dcbx
  pfc_watchdog: false
  min_bandwidth_ratio: 0.75
hosts:
  - {name: a, address: 10.0.0.1}
`
	inv, err := parseInventory("inv.yaml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := recipe.Recipe{
		RoCEPriority: 5, RoCEDSCP: 30, RoCEToS: []int{120, 122}, CNPDSCP: 46, CNPPriority: 7,
		HostMTU: 4200, SwitchMTU: 9100, RoCEMTU: 2048, DCBX: "dcbx", PFCWatchdog: false, MinBandwidthRatio: 0.75,
	}
	if diff := cmp.Diff(want, inv.Recipe); diff != "" {
		t.Errorf("recipe (-want +got):\n%s", diff)
	}
	// The test only proves something if it sets every field to a non-default value.
	dv, wv := reflect.ValueOf(recipe.Default()), reflect.ValueOf(want)
	for i := range dv.NumField() {
		if reflect.DeepEqual(dv.Field(i).Interface(), wv.Field(i).Interface()) {
			t.Errorf("test recipe leaves %s at its default", dv.Type().Field(i).Name)
		}
	}
}

// "identity_file: ssh-agent" means agent keys only: a word, never a file beside the inventory.
func TestIdentityFileSSHAgent(t *testing.T) {
	inv, err := parseInventory("/inv/fabric.yaml", []byte("version: 1\ndefaults:\n  identity_file: keys/id\nhosts:\n  - name: gpu01\n    address: 10.0.0.1\n    identity_file: ssh-agent\n  - name: gpu02\n    address: 10.0.0.2\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.Devices[0].Conn.IdentityFile; got != "" {
		t.Errorf("ssh-agent became identity file %q", got)
	}
	if got := inv.Devices[1].Conn.IdentityFile; got != "/inv/keys/id" {
		t.Errorf("inherited identity file %q", got)
	}
}

// An inventory says which local files it was read from, so that a caller writing files does
// not overwrite them; a NetBox source is a URL, not one of them.
func TestOpenRecordsTheFilesItRead(t *testing.T) {
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts")
	ov := filepath.Join(dir, "conn.yaml")
	if err := os.WriteFile(hosts, []byte("[gpus]\ngpu1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ov, []byte("defaults: {user: ops}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inv, err := Open("ansible:"+hosts+"?defaults="+ov, testPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	if want := (ReadFiles{Source: hosts, Defaults: ov}); inv.Read != want {
		t.Errorf("read %+v, want %+v", inv.Read, want)
	}
}
