package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/roceaudit/roceaudit/topology"
)

func loadTestAnsible(t *testing.T, path string) (*Inventory, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseAnsible(path, data, testPlatforms, testEnv())
}

// The same fabric in Ansible's three formats (YAML, INI, ansible-inventory --list JSON)
// gives the same devices.
func TestAnsibleFabric(t *testing.T) {
	for _, file := range []string{"testdata/imports/ansible/valid/fabric.yml", "testdata/imports/ansible/valid/fabric.ini", "testdata/imports/ansible/valid/fabric.json"} {
		t.Run(filepath.Base(file), func(t *testing.T) { testAnsibleFabric(t, file) })
	}
}

func testAnsibleFabric(t *testing.T, file string) {
	inv, err := loadTestAnsible(t, file)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	fabricKey := "/home/tester/.ssh/fabric_ed25519"
	spineKey := filepath.Join(dir, "keys", "spine_ed25519")
	conn := func(user string, port int, key string, sudo bool) Connection {
		c := testConn // port 0: the inventory sets none, 22 applies after ~/.ssh/config
		c.User, c.UserDefault, c.IdentityFile, c.Sudo = user, false, key, sudo
		if port != 0 {
			c.Port, c.PortDefault = port, false
		}
		return c
	}
	want := []DeviceSpec{
		// hosts (priority 10) beats rack1, its sibling, for gpu01's ansible_user.
		{Name: "gpu01", Role: topology.RoleHost, Platform: "linux", Address: "10.0.0.11", Line: 15, Conn: conn("hpc", 0, fabricKey, true)},
		{Name: "gpu02", Role: topology.RoleHost, Platform: "linux", Address: "10.0.0.12", Line: 17, Conn: conn("hpc", 2222, fabricKey, false)},
		{Name: "gpu03.example.net", Role: topology.RoleHost, Platform: "linux", Address: "gpu03.example.net", Line: 21, Conn: conn("hpc", 0, fabricKey, true)},
		{Name: "gpu04.example.net", Role: topology.RoleHost, Platform: "linux", Address: "gpu04.example.net", Line: 21, Conn: conn("hpc", 0, fabricKey, true)},
		// leaves (depth 2) beats rack1 (depth 1) for leaf1's ansible_user.
		{Name: "leaf1", Role: topology.RoleSwitch, Platform: "sonic", Address: "10.0.1.1", Line: 32, Conn: conn("admin", 0, fabricKey, false)},
		{Name: "leaf2", Role: topology.RoleSwitch, Platform: "cumulus", Address: "10.0.1.2", Line: 34, Conn: conn("cumulus", 0, fabricKey, false)},
		{Name: "spine1", Role: topology.RoleSwitch, Platform: "eos", Address: "10.0.2.1", Line: 45, Conn: conn("admin", 0, spineKey, false)},
		{Name: "spine2", Role: topology.RoleSwitch, Platform: "nxos", Address: "10.0.2.2", Line: 47, Conn: conn("admin", 8022, spineKey, false)},
	}
	var opts []cmp.Option
	if !strings.HasSuffix(file, ".yml") {
		opts = append(opts, cmpopts.IgnoreFields(DeviceSpec{}, "Line"))
	}
	if diff := cmp.Diff(want, inv.Devices, opts...); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
	if len(inv.Warnings) != 0 {
		t.Errorf("warnings: %q", inv.Warnings)
	}
	if inv.File != file || inv.Links != nil || inv.Paths != nil {
		t.Errorf("file %q, links %v, paths %v: want %q and none", inv.File, inv.Links, inv.Paths, file)
	}
}

func TestAnsibleFlat(t *testing.T) {
	inv, err := loadTestAnsible(t, "testdata/imports/ansible/valid/flat.yml")
	if err != nil {
		t.Fatal(err)
	}
	type dev struct {
		Name, Platform, Address, User string
		Port                          int
	}
	var got []dev
	for _, d := range inv.Devices {
		got = append(got, dev{d.Name, d.Platform, d.Address, d.Conn.User, d.Conn.Port})
	}
	want := []dev{
		{"gpu-a", "linux", "gpu-a", "tester", 22},
		{"gpu-b", "linux", "gpu-b", "ops", 2200}, // the port in its name
		{"sw1", "nxos", "sw1", "tester", 830},    // vars of both definitions of sw
		{"swa", "eos", "swa", "tester", 830},     // a host var beats the group's
		{"swb", "eos", "swb", "tester", 830},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
}

// Ansible's precedence, one rule at a time.
func TestAnsiblePrecedence(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		user      string
		port      int
	}{
		{"child group beats parent", `all:
  vars: {ansible_user: a}
  children:
    p:
      vars: {ansible_user: b}
      children:
        c:
          vars: {ansible_user: c}
          hosts: {h1: }
`, "c", 22},
		{"siblings: later name wins", `all:
  children:
    zeta: {vars: {ansible_user: z}, hosts: {h1: }}
    alpha: {vars: {ansible_user: a}, hosts: {h1: }}
`, "z", 22},
		{"siblings: priority beats name", `all:
  children:
    zeta: {vars: {ansible_user: z}, hosts: {h1: }}
    alpha: {vars: {ansible_user: a, ansible_group_priority: 5}, hosts: {h1: }}
`, "a", 22},
		{"depth beats priority", `all:
  children:
    top: {vars: {ansible_user: t, ansible_group_priority: 99}, hosts: {h1: }}
    mid:
      children:
        deep: {vars: {ansible_user: d}, hosts: {h1: }}
`, "d", 22},
		{"host var beats every group", `all:
  children:
    g: {vars: {ansible_user: g, ansible_port: 2000}, hosts: {h1: {ansible_user: h}}}
`, "h", 2000},
		{"host:port beats group port, host var beats host:port", `all:
  children:
    g:
      vars: {ansible_port: 2000}
      hosts:
        "h1:2100":
        "h2:2100": {ansible_port: "2200"}
`, "tester", 2100},
		{"later mention of a host wins", `all:
  children:
    g1: {hosts: {h1: {ansible_user: first}}}
    g2: {hosts: {h1: {ansible_user: second}}}
`, "second", 22},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := parseAnsible("hosts.yml", []byte(tc.src), testPlatforms, testEnv())
			if err != nil {
				t.Fatal(err)
			}
			d, ok := inv.Device("h1")
			if !ok {
				t.Fatalf("no h1 in %+v", inv.Devices)
			}
			if d.Conn.User != tc.user || d.Conn.Port != tc.port {
				t.Errorf("user %q port %d, want %q %d", d.Conn.User, d.Conn.Port, tc.user, tc.port)
			}
			if h2, ok := inv.Device("h2"); ok && h2.Conn.Port != 2200 {
				t.Errorf("h2 port %d, want 2200", h2.Conn.Port)
			}
		})
	}
}

func TestAnsibleNetworkOS(t *testing.T) {
	for _, tc := range []struct{ os, platform string }{
		{"arista.eos.eos", "eos"}, {"eos", "eos"},
		{"cisco.nxos.nxos", "nxos"}, {"nxos", "nxos"},
		{"dellemc.enterprise_sonic.sonic", "sonic"}, {"sonic", "sonic"},
		{"nvidia.nvue.httpapi", "cumulus"}, {"nvidia.nvue.nvue", "cumulus"}, {"nvue", "cumulus"}, {"cumulus", "cumulus"},
	} {
		src := "all:\n  hosts:\n    sw:\n      ansible_network_os: " + tc.os + "\n"
		inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
		if err != nil {
			t.Errorf("%s: %v", tc.os, err)
			continue
		}
		if d := inv.Devices[0]; d.Platform != tc.platform || d.Role != topology.RoleSwitch {
			t.Errorf("%s: platform %q role %q, want %q switch", tc.os, d.Platform, d.Role, tc.platform)
		}
	}
}

// roceaudit_platform overrides ansible_network_os, and none leaves a host out.
func TestAnsiblePlatformOverride(t *testing.T) {
	src := `all:
  children:
    mgmt:
      vars: {roceaudit_platform: none}
      hosts: {bastion: }
    leaves:
      vars: {ansible_network_os: arista.eos.eos}
      hosts:
        leaf1:
        leaf2: {roceaudit_platform: sonic}
`
	inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range inv.Devices {
		got = append(got, d.Name+"="+d.Platform)
	}
	if diff := cmp.Diff([]string{"leaf1=eos", "leaf2=sonic"}, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
}

// A host in two groups is one device; groups that are parent and child may differ (the child
// wins), and a host variable settles a conflict between unrelated groups.
func TestAnsibleHostInSeveralGroups(t *testing.T) {
	src := `all:
  children:
    switches:
      vars: {ansible_network_os: sonic}
      children:
        arista:
          vars: {ansible_network_os: eos}
          hosts: {sw1: }
    leaves:
      vars: {ansible_network_os: sonic}
      hosts:
        sw2:
    spines:
      vars: {ansible_network_os: nxos}
      hosts:
        sw2: {ansible_network_os: eos}
`
	inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range inv.Devices {
		got = append(got, d.Name+"="+d.Platform)
	}
	if diff := cmp.Diff([]string{"sw1=eos", "sw2=eos"}, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}

	// sw1 also in spines: arista (eos) and spines (nxos) are not parent and child.
	_, err = parseAnsible("hosts.yml", []byte(src+"        sw1:\n"), testPlatforms, testEnv())
	const want = `hosts.yml:14:34: host "sw1" is in groups "arista" (line 7) and "spines", which give it different platforms (ansible_network_os: eos and nxos)`
	if err == nil || countErrors(err) != 1 || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant one error starting %s", err, want)
	}
}

func TestExpandHostPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		names   []string
		port    int
	}{
		{"leaf1", []string{"leaf1"}, 0},
		{"leaf1:2222", []string{"leaf1"}, 2222},
		{"gpu[1:3]", []string{"gpu1", "gpu2", "gpu3"}, 0},
		{"gpu[01:03].dc", []string{"gpu01.dc", "gpu02.dc", "gpu03.dc"}, 0},
		{"gpu[1:10:4]", []string{"gpu1", "gpu5", "gpu9"}, 0},
		{"gpu[:2]", []string{"gpu0", "gpu1", "gpu2"}, 0},
		{"sw[a:c]", []string{"swa", "swb", "swc"}, 0},
		{"r[1:2]s[a:b]", []string{"r1sa", "r1sb", "r2sa", "r2sb"}, 0},
		{"gpu[1:2]:2200", []string{"gpu1", "gpu2"}, 2200},
		{"10.0.0.1", []string{"10.0.0.1"}, 0},
		{"fe80::1", []string{"fe80::1"}, 0},
	} {
		names, port, err := expandHostPattern(tc.pattern)
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		if !cmp.Equal(names, tc.names) || port != tc.port {
			t.Errorf("%s: %v port %d, want %v port %d", tc.pattern, names, port, tc.names, tc.port)
		}
	}
	for _, bad := range []string{"gpu[1:]", "gpu[3:1]", "gpu[01:3]", "gpu[1:2", "gpu[1]", "gpu[x:yy]", "leaf1:ssh", "gpu[0:99999]", "gpu[1:5:0]"} {
		if names, _, err := expandHostPattern(bad); err == nil {
			t.Errorf("%s: expanded to %v, want an error", bad, names)
		}
	}
}

func TestAnsibleInvalid(t *testing.T) {
	checkInvalidFiles(t, "testdata/imports/ansible/invalid/*.yml", 15, func(file string, data []byte) (*Inventory, error) {
		return parseAnsible(file, data, testPlatforms, testEnv())
	})
}

// A bad value in a group's vars is reported once, not once per host that inherits it.
func TestAnsibleGroupVarErrorOnce(t *testing.T) {
	src := "all:\n  vars:\n    ansible_port: ssh\n  hosts:\n    a:\n    b:\n    c:\n"
	_, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
	if err == nil || countErrors(err) != 1 || !strings.HasPrefix(err.Error(), `hosts.yml:3:19: ansible_port: "ssh" is not a TCP port`) {
		t.Errorf("got %v; want one error at the group variable", err)
	}
}

func TestLoadAnsible(t *testing.T) {
	t.Setenv("USER", "someone")
	file := filepath.Join("testdata", "imports", "ansible", "valid", "flat.yml")
	inv, err := LoadAnsible(file, testPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	if d := inv.Devices[0]; d.Name != "gpu-a" || d.Conn.User != "someone" {
		t.Errorf("first device %s user %q, want gpu-a someone", d.Name, d.Conn.User)
	}
}

// ansible_become is sudo on a Linux host with the sudo method only: EOS and NX-OS
// inventories say become with the enable method, and sudo -n before a show command fails.
func TestAnsibleBecomeIsSudoOnLinuxOnly(t *testing.T) {
	for _, tc := range []struct {
		vars string
		sudo bool
		warn string
	}{
		{"ansible_become: true", true, ""},
		{"ansible_become: true\n      ansible_become_method: sudo", true, ""},
		{"ansible_become: true\n      ansible_become_method: su", false, "ansible_become (become method su) is not used for linux devices"},
		{"ansible_become: true\n      ansible_network_os: arista.eos.eos\n      ansible_become_method: enable", false, "ansible_become (become method enable) is not used for eos devices"},
		{"ansible_become: true\n      ansible_network_os: cisco.nxos.nxos", false, "ansible_become (become method sudo) is not used for nxos devices"},
	} {
		src := "all:\n  hosts:\n    dev1:\n      " + tc.vars + "\n"
		inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
		if err != nil {
			t.Errorf("%q: %v", tc.vars, err)
			continue
		}
		warned := strings.Join(inv.Warnings, "\n")
		if inv.Devices[0].Conn.Sudo != tc.sudo || (tc.warn == "") != (warned == "") || !strings.Contains(warned, tc.warn) {
			t.Errorf("%q: sudo %v, warnings %q; want sudo %v, warning %q", tc.vars, inv.Devices[0].Conn.Sudo, warned, tc.sudo, tc.warn)
		}
	}
}

// A host whose ansible_network_os roceaudit does not audit (a firewall, an OOB switch) is
// left out with a warning; the rest of the inventory is imported.
func TestAnsibleUnknownNetworkOSIsLeftOut(t *testing.T) {
	src := "all:\n  children:\n    oob:\n      vars:\n        ansible_network_os: junipernetworks.junos.junos\n      hosts:\n        fw1:\n    gpus:\n      hosts:\n        gpu1:\n"
	inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Devices) != 1 || inv.Devices[0].Name != "gpu1" {
		t.Errorf("devices %v, want gpu1 alone", deviceNames(inv))
	}
	if len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], `hosts.yml:5:29: host "fw1" left out: ansible_network_os "junipernetworks.junos.junos" is not one roceaudit audits`) {
		t.Errorf("warnings %q", inv.Warnings)
	}
}

// A bastion given to Ansible's ssh in ansible_ssh_common_args or _extra_args is the jump
// host; a ProxyCommand is warned of, and roceaudit_jump wins.
func TestAnsibleSSHArgsJumpHost(t *testing.T) {
	for _, tc := range []struct {
		vars, jump, warn string
	}{
		{`ansible_ssh_common_args: "-J admin@bastion.example.net"`, "admin@bastion.example.net", ""},
		{`ansible_ssh_common_args: "-o StrictHostKeyChecking=yes -o ProxyJump=jump1:2222"`, "jump1:2222", ""},
		{`ansible_ssh_extra_args: "-o 'ProxyJump ops@b1'"`, "ops@b1", ""},
		{`ansible_ssh_common_args: '-o ProxyCommand="ssh -W %h:%p bastion"'`, "", "a ProxyCommand is not followed"},
		{"ansible_ssh_common_args: \"-J b1\"\n      roceaudit_jump: b2", "b2", ""},
	} {
		src := "all:\n  hosts:\n    gpu1:\n      " + tc.vars + "\n"
		inv, err := parseAnsible("hosts.yml", []byte(src), testPlatforms, testEnv())
		if err != nil {
			t.Errorf("%s: %v", tc.vars, err)
			continue
		}
		warned := strings.Join(inv.Warnings, "\n")
		if got := inv.Devices[0].Conn.Jump; got != tc.jump || (tc.warn == "") != (warned == "") || !strings.Contains(warned, tc.warn) {
			t.Errorf("%s: jump %q, warnings %q; want %q, %q", tc.vars, got, warned, tc.jump, tc.warn)
		}
	}
	// The INI form, as the host line gives it.
	inv, err := parseAnsible("hosts", []byte("[gpus]\ngpu1 ansible_host=10.0.0.1 ansible_ssh_common_args='-J admin@bastion.example.net'\n"), testPlatforms, testEnv())
	if err != nil || inv.Devices[0].Conn.Jump != "admin@bastion.example.net" {
		t.Errorf("INI: %v, %+v", err, inv)
	}
}

// A group named where a host is expected (a [parent] section without :children) is warned
// of: Ansible would make it a host too.
func TestAnsibleHostNamedLikeAGroup(t *testing.T) {
	src := "[leaves]\nleaf1 ansible_network_os=sonic\n[fabric]\nleaves\n"
	inv, err := parseAnsible("hosts", []byte(src), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], `hosts:4:1: host "leaves" has the name of a group`) {
		t.Errorf("warnings %q", inv.Warnings)
	}
}

// An Ansible inventory directory, the usual layout, is answered with what to give instead.
func TestAnsibleInventoryDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadAnsible(dir, testPlatforms)
	if err == nil || !strings.Contains(err.Error(), "is a directory: name the inventory file in it") || !strings.Contains(err.Error(), "ansible-inventory -i "+dir+" --list") {
		t.Errorf("err = %v", err)
	}
}
