package inventory

import (
	"slices"
	"strings"
	"testing"
)

func parseINI(t *testing.T, src string, opts Options) (*Inventory, error) {
	t.Helper()
	return parseAnsibleWith("hosts", []byte(src), testPlatforms, testEnv(), nil, opts)
}

func deviceNames(inv *Inventory) []string {
	var out []string
	for _, d := range inv.Devices {
		out = append(out, d.Name)
	}
	return out
}

// INI as Ansible's ini plugin reads it: ungrouped hosts first, ranges, comments, quotes,
// :children declared before the group, and child group variables over the parent's.
func TestAnsibleINI(t *testing.T) {
	src := `# comment
gpu-lone ansible_host=10.9.9.9
[gpus]
gpu[01:02] ansible_user=hpc  # inline comment
; another comment
[fabric:children]
leaves
[leaves]
leaf[a:c] ansible_port=2200
leaf-z ansible_network_os=arista.eos.eos roceaudit_password_env=LEAF_PW "roceaudit_jump=ops@bastion"
[leaves:vars]
ansible_network_os=dellemc.enterprise_sonic.sonic
ansible_user = 'leafadmin'
roceaudit_user=admin
[fabric:vars]
ansible_network_os=cisco.nxos.nxos
ansible_user=fabric
[all:vars]
ansible_user=netops
`
	inv, err := parseINI(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"gpu-lone", "gpu01", "gpu02", "leafa", "leafb", "leafc", "leaf-z"}
	if got := deviceNames(inv); !slices.Equal(got, want) {
		t.Fatalf("devices %v, want %v", got, want)
	}
	lone, _ := inv.Device("gpu-lone")
	gpu, _ := inv.Device("gpu01")
	leaf, _ := inv.Device("leafb")
	z, _ := inv.Device("leaf-z")
	switch {
	case lone.Address != "10.9.9.9" || lone.Conn.User != "netops" || lone.Platform != "linux":
		t.Errorf("gpu-lone %+v", lone)
	case gpu.Conn.User != "hpc" || gpu.Address != "gpu01":
		t.Errorf("gpu01 %+v", gpu)
	// leaves (the child) beats fabric for ansible_network_os; roceaudit_user beats ansible_user.
	case leaf.Platform != "sonic" || leaf.Conn.Port != 2200 || leaf.Conn.User != "admin":
		t.Errorf("leafb %+v", leaf)
	case z.Platform != "eos" || z.Conn.PasswordEnv != "LEAF_PW" || z.Conn.Jump != "ops@bastion":
		t.Errorf("leaf-z %+v", z)
	}
	if len(inv.Warnings) != 0 {
		t.Errorf("warnings %q", inv.Warnings)
	}
}

func TestAnsibleINIErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[leaves:hostvars]\nleaf1\n", `hosts:1:1: section [leaves:hostvars] has unknown type "hostvars"`},
		{"[leaves]\nleaf1\n[spines:vars]\nansible_user=x\n", "hosts:3:1: [spines:vars] is for a group that no [spines] or [spines:children] section defines"},
		{"[leaves]\nleaf1 ansible_host\n", `hosts:2:7: host leaf1: "ansible_host" is not key=value`},
		{"[leaves]\nleaf1 ansible_user='ops\n", "hosts:2:1: unclosed ' quote"},
		{"[leaves]\nleaf1 ansible_port=99999\n", "hosts:2:20: ansible_port: 99999 is out of range"},
		{"[a:children]\nb\n[b:children]\na\n", `hosts:4:1: group "a" under "b" makes a loop`},
	} {
		_, err := parseINI(t, tc.src, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to start with %q", tc.src, err, tc.want)
		}
	}
}

// A misspelt ansible_ variable, a password variable and an unknown roceaudit_ variable are
// warnings with their place; the user's own variables are not.
func TestAnsibleUnknownVariables(t *testing.T) {
	src := "[leaves]\nleaf1 ansible_hots=10.0.0.1 ansible_password=secret site_id=7\n[leaves:vars]\nroceaudit_usr=ops\nansible_network_os=sonic\n"
	inv, err := parseINI(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"hosts:2:7: unknown Ansible variable ansible_hots ignored; did you mean ansible_host?",
		"hosts:2:29: ansible_password is not read: roceaudit takes a password only from an environment variable",
		"hosts:4:1: unknown variable roceaudit_usr ignored",
	}
	if len(inv.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", inv.Warnings, len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(inv.Warnings, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no warning %q in %q", w, inv.Warnings)
		}
	}
	for _, w := range inv.Warnings {
		if strings.Contains(w, "secret") {
			t.Errorf("a warning shows the password: %q", w)
		}
	}
}

func TestAnsibleFormatDetection(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"gpu01\ngpu02\n", "ini"},
		{"gpu01 ansible_host=10.0.0.1\n", "ini"},
		{"# c\n[leaves]\nleaf1\n", "ini"},
		{"  {\"all\": {}}", "json"},
		{"all:\n  hosts:\n    a:\n", "yaml"},
		{"all:\n  hosts:\n    a: b: c\n", "yaml"}, // broken YAML reports a YAML error
		{"- a\n- b\n", "yaml"},
	} {
		if got := ansibleFormat([]byte(tc.src)); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.src, got, tc.want)
		}
	}
}

// --limit selects as Ansible's does: names and groups (with their children), wildcards,
// exclusion and intersection; a pattern that matches nothing is an error.
func TestAnsibleLimit(t *testing.T) {
	src := "[gpus]\ngpu[1:3]\n[leaves]\nleaf[1:2] ansible_network_os=sonic\n[spines]\nspine1 ansible_network_os=eos\n[fabric:children]\nleaves\nspines\n[rack1]\ngpu1\nleaf1\n"
	for _, tc := range []struct {
		limit []string
		want  string
	}{
		{[]string{"leaves", "gpus"}, "gpu1 gpu2 gpu3 leaf1 leaf2"},
		{[]string{"fabric", "!leaf2"}, "leaf1 spine1"},
		{[]string{"fabric", "&rack1"}, "leaf1"},
		{[]string{"gpu*", "spine1"}, "gpu1 gpu2 gpu3 spine1"},
		{[]string{"!gpus"}, "leaf1 leaf2 spine1"},
		{[]string{"switches"}, "leaf1 leaf2 spine1"},
	} {
		inv, err := parseINI(t, src, Options{Limit: tc.limit})
		if err != nil {
			t.Errorf("%v: %v", tc.limit, err)
			continue
		}
		if got := strings.Join(deviceNames(inv), " "); got != tc.want {
			t.Errorf("--limit %v: %s, want %s", tc.limit, got, tc.want)
		}
	}
	for _, tc := range []struct {
		limit []string
		want  string
	}{
		{[]string{"lefs"}, `--limit "lefs" matches no device or group`},
		{[]string{"gpus", "&leaves"}, "--limit gpus,&leaves leaves no device"},
	} {
		if _, err := parseINI(t, src, Options{Limit: tc.limit}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--limit %v: %v, want %q", tc.limit, err, tc.want)
		}
	}
}

// Warnings come in the order of the file, not of variable or host names.
func TestAnsibleWarningsInFileOrder(t *testing.T) {
	src := "[leaves]\nleaf2 ansible_zz=1 ansible_aa=2\nleaf1 ansible_mm=3\n[leaves:vars]\nansible_bb=4\n"
	inv, err := parseINI(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var places []string
	for _, w := range inv.Warnings {
		place, _, _ := strings.Cut(strings.TrimPrefix(w, "hosts:"), ": ")
		places = append(places, place)
	}
	if want := []string{"2:7", "2:20", "3:7", "5:1"}; !slices.Equal(places, want) {
		t.Errorf("warnings at %q, want %q:\n%s", places, want, strings.Join(inv.Warnings, "\n"))
	}
}

// ansible_connection: an SSH plugin (in any spelling) keeps ansible_port; another one is
// warned about and its port ignored; local is the controller, left out.
func TestAnsibleConnection(t *testing.T) {
	src := `[switches]
eos1 ansible_host=10.0.0.1 ansible_connection=httpapi ansible_port=443 ansible_network_os=arista.eos.eos
nx1 ansible_connection=ansible.netcommon.network_cli ansible_port=2222 ansible_network_os=cisco.nxos.nxos
[hosts]
gpu1:2200 ansible_connection=ansible.builtin.ssh
win1:5986 ansible_connection=winrm
localhost ansible_connection=local
`
	inv, err := parseINI(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := deviceNames(inv), []string{"gpu1", "win1", "eos1", "nx1"}; !slices.Equal(got, want) {
		t.Fatalf("devices %v, want %v", got, want)
	}
	for name, port := range map[string]int{"eos1": 0, "nx1": 2222, "gpu1": 2200, "win1": 0} {
		if d, _ := inv.Device(name); (port == 0) != d.Conn.PortDefault || port != 0 && d.Conn.Port != port {
			t.Errorf("%s: port %d, want %d", name, d.Conn.Port, port)
		}
	}
	want := []string{
		`hosts:2:47: host "eos1": ansible_connection httpapi is not SSH; roceaudit logs in over SSH all the same, to the usual SSH port (roceaudit_port sets another) (ansible_port at line 2 is ignored)`,
		`hosts:6:30: host "win1": ansible_connection winrm is not SSH; roceaudit logs in over SSH all the same, to the usual SSH port (roceaudit_port sets another) (port 5986 of "win1:5986" is ignored)`,
		`hosts:7:30: host "localhost" left out: ansible_connection local is the Ansible controller itself, not a device to log in to (give it ansible_connection: ssh to audit it over SSH)`,
	}
	if !slices.Equal(inv.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(inv.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

// A malformed line that names a password is not quoted whole in the error: its value may be
// the secret itself.
func TestAnsibleErrorsDoNotQuoteSecrets(t *testing.T) {
	for _, src := range []string{
		"[gpus]\ngpu1\n[gpus:vars]\nansible_become_password: TopSecretValue\n",
		"[gpus]\ngpu1 ansible_password:TopSecretValue\n",
		"[gpus]\ngpu1 roceaudit_password_env=\"TopSecretValue now\"\n",
	} {
		_, err := parseAnsible("hosts", []byte(src), testPlatforms, testEnv())
		if err == nil {
			t.Errorf("%q: no error", src)
			continue
		}
		if strings.Contains(err.Error(), "TopSecretValue") {
			t.Errorf("the error quotes the secret: %v", err)
		}
	}
}
