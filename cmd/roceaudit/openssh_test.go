package main

// The binary's command tree against the real OpenSSH server and ~/.ssh/config as OpenSSH
// users write it.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/roceaudit/roceaudit/checks"
	"github.com/roceaudit/roceaudit/internal/opensshd"
)

// writeSSHConfig makes HOME a fresh directory whose ~/.ssh/config is conf.
func writeSSHConfig(t *testing.T, conf string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("SSH_AUTH_SOCK", "")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// plan shows the user, port and jump hosts ~/.ssh/config gives a device the inventory leaves
// them to, and the inventory's own values where it sets them.
func TestPlanHonoursSSHConfig(t *testing.T) {
	writeSSHConfig(t, "Host bastion\n  HostName 127.0.0.1\n  Port 2201\n  User jumper\nHost gpu*\n  User hpc\n  Port 2222\n  ProxyJump bastion\n")
	dir := t.TempDir()
	inv := writeFile(t, dir, "inv.yaml", `version: 1
defaults:
  known_hosts: `+filepath.Join(dir, "known_hosts")+`
hosts:
  - name: gpu01
    address: gpu01
  - name: gpu02
    address: gpu02
    user: ops
    port: 22
`)
	code, out, errs := run(t, "plan", "-i", inv, "--format", "json")
	if code != exitOK {
		t.Fatalf("plan exit %d: %s", code, errs)
	}
	var plan struct {
		Devices []planDevice `json:"devices"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range plan.Devices {
		got[d.Name] = fmt.Sprintf("%s:%d via %v", d.User, d.Port, d.Via)
	}
	want := map[string]string{
		"gpu01": "hpc:2222 via [jumper@127.0.0.1:2201]",
		"gpu02": "ops:22 via [jumper@127.0.0.1:2201]",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: plan says %q, want %q", name, got[name], w)
		}
	}
}

// A host whose sudo wants a password is audited to an incomplete result that says so:
// never a pass, and the audit of the host never hangs on a prompt.
func TestAuditRealSSHDSudoWantsPassword(t *testing.T) {
	opensshd.Require(t)
	u := opensshd.RequireUser(t)
	writeSSHConfig(t, "")
	dir := t.TempDir()
	key := filepath.Join(dir, "id_ed25519")
	pub := opensshd.NewClientKey(t, key)
	s := opensshd.Start(t, opensshd.Options{AuthorizedKeys: []ssh.PublicKey{pub}})
	kh := writeFile(t, dir, "known_hosts", s.KnownHostsLine(true)+"\n")
	inv := writeFile(t, dir, "inv.yaml", fmt.Sprintf(`version: 1
defaults:
  user: %s
  port: %d
  identity_file: %s
  known_hosts: %s
  timeout: 10s
hosts:
  - name: realhost
    address: 127.0.0.1
    sudo: true
`, u.Username, s.Port, key, kh))
	code, out, errs := run(t, "audit", "-i", inv, "--format", "json")
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d (incomplete); stderr %s", code, exitIncomplete, errs)
	}
	rep := decodeReport(t, out)
	// It connected (COLLECT-REACH passes); nothing else may.
	if p := keys(rep, checks.Pass); len(p) != 1 || !strings.Contains(p[0], "COLLECT-REACH") {
		t.Errorf("passed on a host nothing could be read from: %v", p)
	}
	var said bool
	for _, r := range rep.Results {
		if r.Status == checks.Error && strings.Contains(r.Message+r.Evidence.Error+r.Evidence.Excerpt, "password is required") {
			said = true
		}
	}
	if !said {
		t.Errorf("no error result quotes sudo's refusal; results: %v", keys(rep, checks.Error, checks.Fail, checks.Warn))
	}
}
