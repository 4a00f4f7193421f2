package inventory

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roceaudit/roceaudit/topology"
)

// Real Ansible inventories from public repositories (testdata/imports/ansible/real/README.md)
// import as stated there, or fail for the reason stated there.
func TestAnsibleRealInventories(t *testing.T) {
	const dir = "testdata/imports/ansible/real"
	for _, tc := range []struct {
		file     string
		devices  []string // want these, Linux hosts unless platform says; nil: want err
		platform string
		err      string
		warnings []string // each the start of one warning after warnIn (default: file), in order
		warnIn   string
	}{
		{file: "ansible__test__integration__inventory", devices: []string{"testhost3", "testhost4"}, warnings: []string{
			`:2:56: host "testhost" left out: ansible_connection local`, `:3:57: host "testhost2" left out`,
			`:13:61: host "invenoverride" left out`, `:44:57: host "localhost" left out`}},
		{file: "ansible__test__integration__targets__inventory_ini__inventory.ini",
			err: ":1:1: no hosts to audit: no group lists a host, or every host is left out (by roceaudit_platform: none, ansible_connection: local"},
		{file: "ansible__test__integration__targets__inventory__1__2__inventory.yml",
			err: ":1:1: an inventory plugin configuration, not an Ansible YAML inventory: export the hosts with `ansible-inventory -i FILE --list`"},
		{file: "ansible__test__integration__targets__inventory__implicit_grouping.ini", devices: []string{"foo"}},
		{file: "ansible__test__integration__targets__inventory_yaml__test_int_hostname.yml", devices: []string{"1234"}},
		{file: avdExample, platform: "eos",
			devices: []string{"dc1-spine1", "dc1-spine2", "dc1-leaf1a", "dc1-leaf1b", "dc1-leaf2a", "dc1-leaf2b", "dc1-leaf1c", "dc1-leaf2c"},
			warnIn:  avdFabric, warnings: avdWarnings()},
		// SR Linux nodes are left out (one unknown network OS must not stop the rest).
		{file: "containerlab__core__inventory_test.go__case2.yml", devices: []string{"clab-topo8_ansible_groups-node4"}, warnings: []string{
			`:13:29: host "clab-topo8_ansible_groups-node1" left out: ansible_network_os "nokia.srlinux.srlinux" is not one roceaudit audits`,
			`:13:29: host "clab-topo8_ansible_groups-node2" left out`, `:13:29: host "clab-topo8_ansible_groups-node3" left out`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			inv, err := loadTestAnsible(t, path)
			if tc.devices == nil {
				if err == nil || !strings.HasPrefix(err.Error(), path+tc.err) {
					t.Fatalf("error %v, want it to start with %s", err, path+tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := deviceNames(inv); !slices.Equal(got, tc.devices) {
				t.Errorf("devices %v, want %v", got, tc.devices)
			}
			want := cmp.Or(tc.platform, defaultHostPlatform)
			for _, d := range inv.Devices {
				if d.Platform != want {
					t.Errorf("%s: platform %s, want %s", d.Name, d.Platform, want)
				}
				if d.Role == topology.RoleSwitch && d.Conn.Sudo {
					t.Errorf("%s: a switch with sudo (its commands would all fail)", d.Name)
				}
			}
			if len(inv.Warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %d", inv.Warnings, len(tc.warnings))
			}
			warnIn := filepath.Join(dir, cmp.Or(tc.warnIn, tc.file))
			for i, w := range tc.warnings {
				if !strings.HasPrefix(inv.Warnings[i], warnIn+w) {
					t.Errorf("warning %d: %q, want it to start with %q", i, inv.Warnings[i], warnIn+w)
				}
			}
		})
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 8 { // the seven above (the AVD example a directory) and the README
		t.Errorf("%d files in %s, want the 7 tested and README.md", len(files), dir)
	}
}

// AVD's example with its group_vars/, where ansible_network_os is set.
const (
	avdExample = "avd__ansible_collections__arista__avd__examples__single-dc-l3ls/inventory.yml"
	avdFabric  = "avd__ansible_collections__arista__avd__examples__single-dc-l3ls/group_vars/FABRIC.yml"
)

// avdWarnings are about group_vars/FABRIC.yml: eAPI over HTTPS (httpapi) rather than SSH,
// for each switch, then its password, then become with the enable method (not sudo).
func avdWarnings() []string {
	var out []string
	for _, h := range []string{"dc1-spine1", "dc1-spine2", "dc1-leaf1a", "dc1-leaf1b", "dc1-leaf2a", "dc1-leaf2b", "dc1-leaf1c", "dc1-leaf2c"} {
		out = append(out, `:4:21: host "`+h+`": ansible_connection ansible.netcommon.httpapi is not SSH`)
	}
	return append(out, ":9:1: ansible_password is not read", ":11:17: ansible_become (become method enable) is not used for eos devices")
}
