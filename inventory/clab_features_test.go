package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Environment variables are expanded as containerlab's envsubst does.
func TestExpandClabEnv(t *testing.T) {
	env := map[string]string{"SET": "v", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for in, want := range map[string]string{
		"${SET}":                 "v",
		"$SET/x":                 "v/x",
		"${UNSET}":               "${UNSET}",
		"$UNSET":                 "$UNSET",
		"${UNSET:=d}":            "d",
		"${UNSET:-d}":            "d",
		"${EMPTY:-d}":            "d",
		"${EMPTY-d}":             "",
		"${UNSET-d}":             "d",
		"${SET:=d}":              "v",
		"${UNSET:=${SET}-x}":     "v-x",
		`prefix: ${P:=""}`:       `prefix: ""`,
		"echo $1 and $ alone":    "echo $1 and $ alone",
		"${SET,,}":               "${SET,,}",
		"a: ${IMG:=img}:${V:=1}": "a: img:1",
	} {
		if got := string(expandClabEnv([]byte(in), lookup)); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

// A node takes its settings from itself, then its group, then its kind, then the defaults;
// roceaudit.* labels say how to log in; env expansion happens first.
func TestContainerlabInheritanceAndLabels(t *testing.T) {
	src := `name: lab
topology:
  defaults:
    labels: {roceaudit.user: dflt, roceaudit.port: "2200"}
  kinds:
    ceos:
      labels: {roceaudit.user: admin, roceaudit.identity_file: keys/ceos}
  groups:
    spines:
      kind: ceos
      labels: {roceaudit.user: spineops, roceaudit.sudo: "true"}
    gpus:
      kind: linux
      labels: {roceaudit.password_env: GPU_PW, roceaudit.timeout: 45s}
  nodes:
    spine1: {group: spines, mgmt-ipv4: "${SPINE_IP:=172.20.20.11}"}
    spine2: {kind: ceos, labels: {roceaudit.port: 8022}}
    gpu1: {group: gpus}
    srl: {kind: nokia_srlinux, labels: {roceaudit.platform: linux, roceaudit.usr: x}}
  links:
    - endpoints: ["spine1:eth1", "spine2:eth1"]
    - type: veth-stitch
      endpoints: [{node: spine1, interface: eth2}, {node: gpu1, interface: eth1}]
    - type: dummy
      endpoint: {node: gpu1, interface: eth9}
`
	inv, err := parseContainerlabWith("/lab/t.clab.yml", []byte(src), testPlatforms, testEnv(), func(string) (string, bool) { return "", false }, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s1, _ := inv.Device("spine1")
	s2, _ := inv.Device("spine2")
	g, _ := inv.Device("gpu1")
	srl, _ := inv.Device("srl")
	switch {
	case s1.Platform != "eos" || s1.Address != "172.20.20.11" || s1.Conn.User != "spineops" || !s1.Conn.Sudo || s1.Conn.Port != 2200 || s1.Conn.IdentityFile != "/lab/keys/ceos":
		t.Errorf("spine1 %+v", s1)
	case s2.Conn.User != "admin" || s2.Conn.Port != 8022 || s2.Address != "clab-lab-spine2":
		t.Errorf("spine2 %+v", s2)
	case g.Platform != "linux" || g.Conn.User != "dflt" || g.Conn.PasswordEnv != "GPU_PW" || g.Conn.Timeout != 45*time.Second:
		t.Errorf("gpu1 %+v", g)
	case srl.Platform != "linux":
		t.Errorf("srl %+v", srl)
	}
	if len(inv.Links) != 2 || inv.Links[1].B.Device != "gpu1" {
		t.Errorf("links %v", inv.Links)
	}
	if len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], "unknown label roceaudit.usr ignored") || !strings.HasPrefix(inv.Warnings[0], "/lab/t.clab.yml:19:") {
		t.Errorf("warnings %q", inv.Warnings)
	}
}

func TestContainerlabTemplateRefused(t *testing.T) {
	src := "name: l\ntopology:\n  nodes:\n{{ range .nodes }}\n    {{ . }}: {kind: linux}\n{{ end }}\n"
	_, err := parseContainerlab("t.clab.yml", []byte(src), testPlatforms, testEnv())
	if err == nil || !strings.HasPrefix(err.Error(), "t.clab.yml:4: this topology is a template") || !strings.Contains(err.Error(), "--export-rendered") {
		t.Errorf("error %v", err)
	}
}

// --defaults: an overlay under what the source sets (defaults:) and over it (devices:),
// with the recipe; a device it names that the source lacks is an error in the overlay.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	ovFile := filepath.Join(dir, "conn.yaml")
	write := func(s string) {
		if err := os.WriteFile(ovFile, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	topo := "name: lab\ntopology:\n  nodes:\n    leaf1: {kind: ceos, labels: {roceaudit.user: fromlabel}}\n    gpu1: {kind: linux}\n"
	load := func() (*Inventory, error) {
		ov, err := parseOverlay(ovFile, mustRead(t, ovFile), testPlatforms, testEnv())
		if err != nil {
			return nil, err
		}
		return parseContainerlabWith("t.clab.yml", []byte(topo), testPlatforms, testEnv(), func(string) (string, bool) { return "", false }, ov, Options{})
	}
	write("defaults: {user: labops, identity_file: id_lab, known_hosts: kh}\nrecipe: {roce_priority: 4, cnp_priority: 6}\ndevices:\n  leaf1: {password_env: LEAF_PW}\n  gpu1: {user: root, sudo: true}\n")
	inv, err := load()
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := inv.Device("leaf1")
	gpu, _ := inv.Device("gpu1")
	switch {
	case leaf.Conn.User != "fromlabel" || leaf.Conn.PasswordEnv != "LEAF_PW" || leaf.Conn.IdentityFile != filepath.Join(dir, "id_lab") || leaf.Conn.KnownHosts != filepath.Join(dir, "kh"):
		t.Errorf("leaf1 %+v", leaf.Conn)
	case gpu.Conn.User != "root" || !gpu.Conn.Sudo:
		t.Errorf("gpu1 %+v", gpu.Conn)
	case inv.Recipe.RoCEPriority != 4:
		t.Errorf("recipe %+v", inv.Recipe)
	}
	for src, want := range map[string]string{
		"devices:\n  leaf9: {user: x}\n":  ovFile + `:2:3: devices: "leaf9" is not a device of the imported source`,
		"defaults: {pasword: x}\n":        ovFile + `:1:12: unknown key "pasword" in defaults`,
		"defaults: {password: x}\n":       ovFile + `:1:12: key "password" is not allowed in defaults: literal passwords are not accepted`,
		"hosts: []\n":                     ovFile + `:1:1: unknown key "hosts" in the overlay (expected one of: defaults, recipe, devices, platforms)`,
		"platforms: {dell-os10: junos}\n": ovFile + `:1:24: platforms.dell-os10: unknown platform "junos"`,
	} {
		write(src)
		if _, err := load(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v\nwant prefix %s", src, err, want)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A management address left as an unset ${VAR} says the variable is unset, not that the
// text is no IP address.
func TestContainerlabUnsetAddressVariable(t *testing.T) {
	src := "name: l\ntopology:\n  nodes:\n    gpu1: {kind: linux, mgmt-ipv4: \"${ROCEAUDIT_TEST_UNSET_GPU1_IP}\"}\n"
	_, err := parseContainerlabWith("t.clab.yml", []byte(src), testPlatforms, testEnv(), func(string) (string, bool) { return "", false }, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "${ROCEAUDIT_TEST_UNSET_GPU1_IP} is not set in the environment") {
		t.Errorf("error %v", err)
	}
}
