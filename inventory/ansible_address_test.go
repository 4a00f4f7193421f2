package inventory

import (
	"strings"
	"testing"
)

// The address: roceaudit_address over ansible_host, the host's-name template resolved, and
// any other template replaced by the overlay's address instead of refused.
func TestAnsibleAddress(t *testing.T) {
	src := `all:
  vars: {ansible_host: "{{ inventory_hostname }}.mgmt"}
  hosts:
    gpu01:
    gpu02: {ansible_host: "{{inventory_hostname}}"}
    gpu03: {ansible_host: "{{ hostvars[inventory_hostname].ip }}", roceaudit_address: 10.0.0.13}
    gpu04: {ansible_host: "{{ mgmt_ip }}"}
    gpu05: {ansible_ssh_host: 10.0.0.15, roceaudit_address: gpu05.oob.example.net}
`
	ov, err := parseOverlay("ov.yaml", []byte("devices:\n  gpu04: {address: 10.0.0.14, user: ops}\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	inv, err := parseAnsibleWith("hosts.yml", []byte(src), testPlatforms, testEnv(), ov, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gpu01": "gpu01.mgmt", "gpu02": "gpu02", "gpu03": "10.0.0.13", "gpu04": "10.0.0.14", "gpu05": "gpu05.oob.example.net"}
	for name, addr := range want {
		if d, ok := inv.Device(name); !ok || d.Address != addr {
			t.Errorf("%s: address %q, want %q", name, d.Address, addr)
		}
	}
	if d, _ := inv.Device("gpu04"); d.Conn.User != "ops" {
		t.Errorf("gpu04: user %q, want the overlay's ops", d.Conn.User)
	}
	if len(inv.Warnings) != 0 {
		t.Errorf("warnings %q", inv.Warnings)
	}

	// Without the overlay, gpu04's template is an error that says how to override it.
	_, err = parseAnsibleWith("hosts.yml", []byte(src), testPlatforms, testEnv(), nil, Options{})
	wantErr := `hosts.yml:7:27: host "gpu04": ansible_host: "{{ mgmt_ip }}" is a Jinja template`
	if err == nil || !strings.HasPrefix(err.Error(), wantErr) || !strings.Contains(err.Error(), "set roceaudit_address on the host, or give it an address in the --defaults overlay (devices: {gpu04: {address: ...}})") {
		t.Errorf("error %v, want %q and how to override it", err, wantErr)
	}
	// A template in roceaudit_address itself is refused the same way.
	_, err = parseAnsibleWith("hosts.yml", []byte("all:\n  hosts:\n    gpu01: {roceaudit_address: \"{{ ip }}\"}\n"), testPlatforms, testEnv(), nil, Options{})
	if err == nil || !strings.Contains(err.Error(), `roceaudit_address: "{{ ip }}" is a Jinja template`) {
		t.Errorf("templated roceaudit_address: %v", err)
	}
}

func TestOverlayAddress(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"devices:\n  gpu01: {address: \"10.0.0.1:22\"}\n", `ov.yaml:2:20: address: "10.0.0.1:22" includes a port`},
		{"devices:\n  gpu01: {adress: 10.0.0.1}\n", `ov.yaml:2:11: unknown key "adress"`},
		{"defaults: {address: 10.0.0.1}\n", `ov.yaml:1:12: unknown key "address"`},
	} {
		_, err := parseOverlay("ov.yaml", []byte(tc.src), testPlatforms, testEnv())
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// A templated connection variable (ansible_user="{{ SSH_USER }}", as network inventories
// often have) is passed over when roceaudit_user or the overlay's user: replaces it.
func TestAnsibleTemplatedConnVars(t *testing.T) {
	src := "[spine]\nspine1 ansible_host=10.9.21.107 ansible_user=\"{{ SSH_USER }}\" roceaudit_user=ops\n" +
		"spine2 ansible_host=10.9.21.106 ansible_user=\"{{ SSH_USER }}\" ansible_port=\"{{ p }}\"\n"
	ov, err := parseOverlay("ov.yaml", []byte("devices: {spine2: {user: admin, port: 2222}}\n"), testPlatforms, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	inv, err := parseAnsibleWith("hosts", []byte(src), testPlatforms, testEnv(), ov, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s1, _ := inv.Device("spine1")
	s2, _ := inv.Device("spine2")
	if s1.Conn.User != "ops" || s2.Conn.User != "admin" || s2.Conn.Port != 2222 {
		t.Errorf("spine1 %+v, spine2 %+v", s1.Conn, s2.Conn)
	}
	_, err = parseAnsibleWith("hosts", []byte(src), testPlatforms, testEnv(), nil, Options{})
	want := `hosts:3:46: host "spine2": ansible_user: "{{ SSH_USER }}" is a Jinja template, which roceaudit does not evaluate: set roceaudit_user on the host, or give it user in the --defaults overlay (devices: {spine2: {user: ...}})`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `ansible_port: "{{ p }}" is a Jinja template`) || strings.Contains(err.Error(), `"spine1"`) {
		t.Errorf("error:\n%v\nwant:\n%s\nand one for ansible_port, none for spine1", err, want)
	}
}
