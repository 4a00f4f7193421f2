package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixture's group_vars/ and host_vars/ give the effective values Ansible would: see the
// comments in testdata/imports/ansible/varsdirs.
func TestAnsibleVarsDirs(t *testing.T) {
	dir := filepath.Join("testdata", "imports", "ansible", "varsdirs")
	path := filepath.Join(dir, "inventory.ini")
	inv, err := loadTestAnsible(t, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		name, platform, user string
		port                 int
	}{
		{"gpu01", "linux", "netops", 2200},           // group_vars/all.yml over [gpus:vars] and [all:vars]
		{"leaf1", "cumulus", "leaf1-admin", 2200},    // host_vars/leaf1.yml over group_vars/leaves/
		{"leaf2", "cumulus", "inventory-host", 2022}, // leaf2's own var over group_vars/leaves/; host_vars/leaf2 over both
		{"spine1", "eos", "netops", 2200},            // the vault file and spines.yaml are not read
	} {
		d, ok := inv.Device(want.name)
		if !ok {
			t.Fatalf("no %s in %v", want.name, deviceNames(inv))
		}
		if d.Platform != want.platform || d.Conn.User != want.user || d.Conn.Port != want.port {
			t.Errorf("%s: %s %s@:%d, want %s %s@:%d", want.name, d.Platform, d.Conn.User, d.Conn.Port, want.platform, want.user, want.port)
		}
	}
	gv := filepath.Join(dir, "group_vars")
	wantWarnings := []string{
		filepath.Join(gv, "leaves", "20-login.yml") + ":3:1: unknown Ansible variable ansible_becom ignored; did you mean ansible_become?",
		filepath.Join(gv, "spines.yml") + ":1:1: encrypted with ansible-vault, which roceaudit cannot decrypt: its variables are skipped",
	}
	if len(inv.Warnings) != len(wantWarnings) {
		t.Fatalf("warnings %q, want %d", inv.Warnings, len(wantWarnings))
	}
	for i, w := range wantWarnings {
		if !strings.HasPrefix(inv.Warnings[i], w) {
			t.Errorf("warning %d: %q, want it to start with %q", i, inv.Warnings[i], w)
		}
	}
	if strings.Contains(strings.Join(inv.Warnings, "\n"), "6231336539") {
		t.Error("a warning shows the vault file's content")
	}
}

// writeTree writes files (path: content) under a new directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Ansible's documented order, lowest first: inventory group vars, group_vars/all,
// group_vars/* (by group depth, then priority, then name), inventory host vars,
// host_vars/*. Each case sets the user in two places; the second must win.
func TestAnsibleVarsDirsPrecedence(t *testing.T) {
	const inventory = `all:
  vars: {x: 0}
  children:
    parent:
      vars: {p: 0}
      children:
        child:
          vars: {c: 0}
          hosts: {h1: }
`
	for _, tc := range []struct {
		name  string
		files map[string]string
		user  string
	}{
		{"group_vars/all over a child group's inventory vars", map[string]string{
			"hosts.yml": strings.Replace(inventory, "c: 0", "ansible_user: inv-child", 1), "group_vars/all.yml": "ansible_user: gv-all\n"}, "gv-all"},
		{"group_vars/GROUP over group_vars/all", map[string]string{
			"group_vars/all.yml": "ansible_user: gv-all\n", "group_vars/parent.yml": "ansible_user: gv-parent\n"}, "gv-parent"},
		{"a child's group_vars over its parent's", map[string]string{
			"group_vars/child.yaml": "ansible_user: gv-child\n", "group_vars/parent.json": `{"ansible_user": "gv-parent"}`}, "gv-child"},
		{"inventory host vars over group_vars/GROUP", map[string]string{
			"hosts.yml": strings.Replace(inventory, "h1: ", "h1: {ansible_user: inv-host}", 1), "group_vars/child": "ansible_user: gv-child\n"}, "inv-host"},
		{"host_vars/HOST over inventory host vars", map[string]string{
			"hosts.yml": strings.Replace(inventory, "h1: ", "h1: {ansible_user: inv-host}", 1), "host_vars/h1.yml": "ansible_user: hv\n"}, "hv"},
		{"GROUP before GROUP.yml: a directory is read, the file not", map[string]string{
			"group_vars/child/a.yml": "ansible_user: dir-a\n", "group_vars/child/b/c.json": `{"ansible_user": "dir-b-c"}`, "group_vars/child.yml": "ansible_user: file\n"}, "dir-b-c"},
		{"an empty file has no variables", map[string]string{
			"group_vars/parent.yml": "ansible_user: gv-parent\n", "group_vars/child.yml": "# nothing yet\n"}, "gv-parent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := tc.files["hosts.yml"]; !ok {
				tc.files["hosts.yml"] = inventory
			}
			inv, err := loadTestAnsible(t, filepath.Join(writeTree(t, tc.files), "hosts.yml"))
			if err != nil {
				t.Fatal(err)
			}
			if d, _ := inv.Device("h1"); d.Conn.User != tc.user {
				t.Errorf("user %q, want %q", d.Conn.User, tc.user)
			}
		})
	}
}

// Mistakes in a vars file are errors at its own line, never at the inventory's.
func TestAnsibleVarsDirsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, err string
	}{
		{"invalid YAML", "group_vars/g.yml", "ansible_user: a\n  bad: [\n", "group_vars/g.yml:2: invalid YAML"},
		{"not a mapping", "host_vars/h1.yml", "# comment\n- ansible_user\n", "host_vars/h1.yml:2:1: expected a mapping of variables (name: value), got a list"},
		{"bad value", "group_vars/all/conn.yml", "ansible_port: many\n", "group_vars/all/conn.yml:1:15: ansible_port: \"many\" is not a TCP port"},
		{"two documents", "group_vars/g", "a: 1\n---\nb: 2\n", "group_vars/g:2:1: a second YAML document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"hosts.ini": "[g]\nh1\n", tc.file: tc.content})
			_, err := loadTestAnsible(t, filepath.Join(dir, "hosts.ini"))
			if want := filepath.Join(dir, tc.err); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v, want it to start with %s", err, want)
			}
		})
	}
}
